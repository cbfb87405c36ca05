// Original file: proto/router/v1/router.proto


export interface RouteFiguresRequest {
  /**
   * yyyy-MM-dd, a wall-clock day in Mexico City.
   */
  'day'?: (string);
}

export interface RouteFiguresRequest__Output {
  /**
   * yyyy-MM-dd, a wall-clock day in Mexico City.
   */
  'day': (string);
}
