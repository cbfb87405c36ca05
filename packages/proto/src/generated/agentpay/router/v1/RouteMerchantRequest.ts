// Original file: proto/router/v1/router.proto


export interface RouteMerchantRequest {
  'id'?: (string);
  'mch_no'?: (string);
}

export interface RouteMerchantRequest__Output {
  'id': (string);
  'mch_no': (string);
}
