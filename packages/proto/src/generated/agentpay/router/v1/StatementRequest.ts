// Original file: proto/router/v1/router.proto


export interface StatementRequest {
  'route_id'?: (string);
  /**
   * yyyy-MM-dd, a wall-clock day in Mexico City.
   */
  'day'?: (string);
}

export interface StatementRequest__Output {
  'route_id': (string);
  /**
   * yyyy-MM-dd, a wall-clock day in Mexico City.
   */
  'day': (string);
}
