// Original file: proto/compliance/v1/compliance.proto


export interface CaseRef {
  'id'?: (string);
}

export interface CaseRef__Output {
  'id': (string);
}
