// Original file: proto/router/v1/router.proto


export interface PayoutRef {
  'route_id'?: (string);
  'transfer_no'?: (string);
  'upstream_ref'?: (string);
}

export interface PayoutRef__Output {
  'route_id': (string);
  'transfer_no': (string);
  'upstream_ref': (string);
}
