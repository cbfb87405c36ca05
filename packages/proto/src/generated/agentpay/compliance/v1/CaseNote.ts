// Original file: proto/compliance/v1/compliance.proto


export interface CaseNote {
  'id'?: (string);
  'text'?: (string);
  'actor'?: (string);
}

export interface CaseNote__Output {
  'id': (string);
  'text': (string);
  'actor': (string);
}
