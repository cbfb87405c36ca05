// Original file: proto/compliance/v1/compliance.proto


export interface ScreenResponse {
  /**
   * clear | hit | review
   */
  'outcome'?: (string);
  /**
   * blocked | watch; empty when clear.
   */
  'list_kind'?: (string);
  'list_id'?: (string);
  'score'?: (number | string);
  'case_id'?: (string);
  /**
   * true when the operation must not go ahead without a decision (payouts: held; deposits: returned).
   */
  'hold'?: (boolean);
}

export interface ScreenResponse__Output {
  /**
   * clear | hit | review
   */
  'outcome': (string);
  /**
   * blocked | watch; empty when clear.
   */
  'list_kind': (string);
  'list_id': (string);
  'score': (number);
  'case_id': (string);
  /**
   * true when the operation must not go ahead without a decision (payouts: held; deposits: returned).
   */
  'hold': (boolean);
}
