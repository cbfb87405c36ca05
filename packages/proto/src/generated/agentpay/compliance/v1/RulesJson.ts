// Original file: proto/compliance/v1/compliance.proto


export interface RulesJson {
  'json'?: (string);
  'actor'?: (string);
}

export interface RulesJson__Output {
  'json': (string);
  'actor': (string);
}
