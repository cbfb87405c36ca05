// Original file: proto/compliance/v1/compliance.proto


export interface CreateListRequest {
  'name'?: (string);
  'kind'?: (string);
  'actor'?: (string);
}

export interface CreateListRequest__Output {
  'name': (string);
  'kind': (string);
  'actor': (string);
}
