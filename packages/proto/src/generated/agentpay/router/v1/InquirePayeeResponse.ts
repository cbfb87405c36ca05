// Original file: proto/router/v1/router.proto


export interface InquirePayeeResponse {
  /**
   * valid, invalid, unknown
   */
  'status'?: (string);
}

export interface InquirePayeeResponse__Output {
  /**
   * valid, invalid, unknown
   */
  'status': (string);
}
