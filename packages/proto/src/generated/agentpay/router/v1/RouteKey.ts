// Original file: proto/router/v1/router.proto


export interface RouteKey {
  'id'?: (string);
}

export interface RouteKey__Output {
  'id': (string);
}
