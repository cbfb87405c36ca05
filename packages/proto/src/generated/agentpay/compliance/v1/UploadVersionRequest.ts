// Original file: proto/compliance/v1/compliance.proto


export interface UploadVersionRequest {
  'list_id'?: (string);
  /**
   * csv | ofac-sdn
   */
  'format'?: (string);
  'body'?: (string);
  'actor'?: (string);
}

export interface UploadVersionRequest__Output {
  'list_id': (string);
  /**
   * csv | ofac-sdn
   */
  'format': (string);
  'body': (string);
  'actor': (string);
}
