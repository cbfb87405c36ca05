// Original file: proto/router/v1/router.proto


export interface PayoutRef {
  /**
   * Empty when the submission's answer was lost: every route that serves payouts is asked.
   */
  'route_id'?: (string);
  'transfer_no'?: (string);
  'upstream_ref'?: (string);
}

export interface PayoutRef__Output {
  /**
   * Empty when the submission's answer was lost: every route that serves payouts is asked.
   */
  'route_id': (string);
  'transfer_no': (string);
  'upstream_ref': (string);
}
