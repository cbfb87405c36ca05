// Original file: proto/compliance/v1/compliance.proto


export interface CaseDecision {
  'id'?: (string);
  /**
   * release | reject
   */
  'decision'?: (string);
  'reason'?: (string);
  'actor'?: (string);
  'approval_id'?: (string);
}

export interface CaseDecision__Output {
  'id': (string);
  /**
   * release | reject
   */
  'decision': (string);
  'reason': (string);
  'actor': (string);
  'approval_id': (string);
}
