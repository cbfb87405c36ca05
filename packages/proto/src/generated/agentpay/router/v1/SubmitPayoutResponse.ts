// Original file: proto/router/v1/router.proto


export interface SubmitPayoutResponse {
  'route_id'?: (string);
  /**
   * progress (accepted) or fail (rejected synchronously)
   */
  'status'?: (string);
  'upstream_ref'?: (string);
  /**
   * SPEI tracking key the channel gave the payout; empty when it has none (yet).
   */
  'clave_rastreo'?: (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank'?: (string);
}

export interface SubmitPayoutResponse__Output {
  'route_id': (string);
  /**
   * progress (accepted) or fail (rejected synchronously)
   */
  'status': (string);
  'upstream_ref': (string);
  /**
   * SPEI tracking key the channel gave the payout; empty when it has none (yet).
   */
  'clave_rastreo': (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank': (string);
}
