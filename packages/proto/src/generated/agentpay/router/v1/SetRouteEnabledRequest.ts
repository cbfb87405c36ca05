// Original file: proto/router/v1/router.proto


export interface SetRouteEnabledRequest {
  'id'?: (string);
  'enabled'?: (boolean);
}

export interface SetRouteEnabledRequest__Output {
  'id': (string);
  'enabled': (boolean);
}
