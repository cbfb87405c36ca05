// Original file: proto/compliance/v1/compliance.proto


export interface ListCasesRequest {
  'state'?: (string);
  'kind'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
}

export interface ListCasesRequest__Output {
  'state': (string);
  'kind': (string);
  'cursor': (string);
  'limit': (number);
}
