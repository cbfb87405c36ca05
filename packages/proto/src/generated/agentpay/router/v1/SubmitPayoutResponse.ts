// Original file: proto/router/v1/router.proto


export interface SubmitPayoutResponse {
  'route_id'?: (string);
  /**
   * progress (accepted) or fail (rejected synchronously)
   */
  'status'?: (string);
  'upstream_ref'?: (string);
}

export interface SubmitPayoutResponse__Output {
  'route_id': (string);
  /**
   * progress (accepted) or fail (rejected synchronously)
   */
  'status': (string);
  'upstream_ref': (string);
}
