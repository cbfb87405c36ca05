// Original file: proto/transfers/v1/transfers.proto


export interface Inquiry {
  'inqury_no'?: (string);
  'biz_inqury_no'?: (string);
  /**
   * valid, invalid, unknown
   */
  'status'?: (string);
  'account_valid'?: (boolean);
  'upload_payee_name'?: (string);
}

export interface Inquiry__Output {
  'inqury_no': (string);
  'biz_inqury_no': (string);
  /**
   * valid, invalid, unknown
   */
  'status': (string);
  'account_valid': (boolean);
  'upload_payee_name': (string);
}
