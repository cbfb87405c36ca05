// Original file: proto/ledger/v1/ledger.proto


export interface ResolveDiscrepancyRequest {
  'id'?: (string);
  /**
   * apply, credit or return
   */
  'action'?: (string);
  'reason'?: (string);
  /**
   * Read only when the call carries no x-agentpay-actor metadata (callers older than it); the actor's label
   * is the operator otherwise.
   */
  'operator'?: (string);
  /**
   * credit: the merchant to credit when the discrepancy does not name one (the caller looked the order up).
   */
  'mch_no'?: (string);
}

export interface ResolveDiscrepancyRequest__Output {
  'id': (string);
  /**
   * apply, credit or return
   */
  'action': (string);
  'reason': (string);
  /**
   * Read only when the call carries no x-agentpay-actor metadata (callers older than it); the actor's label
   * is the operator otherwise.
   */
  'operator': (string);
  /**
   * credit: the merchant to credit when the discrepancy does not name one (the caller looked the order up).
   */
  'mch_no': (string);
}
