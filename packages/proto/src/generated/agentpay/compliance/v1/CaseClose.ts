// Original file: proto/compliance/v1/compliance.proto


export interface CaseClose {
  'id'?: (string);
  /**
   * not_unusual | report
   */
  'outcome'?: (string);
  'reason'?: (string);
  'actor'?: (string);
}

export interface CaseClose__Output {
  'id': (string);
  /**
   * not_unusual | report
   */
  'outcome': (string);
  'reason': (string);
  'actor': (string);
}
