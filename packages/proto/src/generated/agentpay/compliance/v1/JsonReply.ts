// Original file: proto/compliance/v1/compliance.proto


export interface JsonReply {
  'json'?: (string);
}

export interface JsonReply__Output {
  'json': (string);
}
