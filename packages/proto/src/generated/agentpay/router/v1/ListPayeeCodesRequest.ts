// Original file: proto/router/v1/router.proto


export interface ListPayeeCodesRequest {
  'mch_no'?: (string);
  'payee_type'?: (string);
}

export interface ListPayeeCodesRequest__Output {
  'mch_no': (string);
  'payee_type': (string);
}
