// Original file: proto/router/v1/router.proto


export interface MerchantRequest {
  'mch_no'?: (string);
}

export interface MerchantRequest__Output {
  'mch_no': (string);
}
