// Original file: proto/router/v1/router.proto


export interface VirtualAccountRef {
  'route_id'?: (string);
  'order_no'?: (string);
  'upstream_ref'?: (string);
}

export interface VirtualAccountRef__Output {
  'route_id': (string);
  'order_no': (string);
  'upstream_ref': (string);
}
