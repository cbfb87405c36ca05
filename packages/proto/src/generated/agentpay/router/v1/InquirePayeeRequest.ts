// Original file: proto/router/v1/router.proto


export interface InquirePayeeRequest {
  'mch_no'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  /**
   * Public payee code.
   */
  'payee_code'?: (string);
}

export interface InquirePayeeRequest__Output {
  'mch_no': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  /**
   * Public payee code.
   */
  'payee_code': (string);
}
