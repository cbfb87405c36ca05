// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

export interface ChannelFact {
  'at'?: (string);
  /**
   * account.opened, account.paid, account.closed, deposit.accepted, deposit.returned, payout.submitted,
   * notice.<status>
   */
  'kind'?: (string);
  'route_id'?: (string);
  'amount'?: (number | string | Long);
  'clave_rastreo'?: (string);
  /**
   * Further facts of the kind (clabe, reason, upstream_ref, deliveries, ...), as text.
   */
  'detail'?: ({[key: string]: string});
}

export interface ChannelFact__Output {
  'at': (string);
  /**
   * account.opened, account.paid, account.closed, deposit.accepted, deposit.returned, payout.submitted,
   * notice.<status>
   */
  'kind': (string);
  'route_id': (string);
  'amount': (string);
  'clave_rastreo': (string);
  /**
   * Further facts of the kind (clabe, reason, upstream_ref, deliveries, ...), as text.
   */
  'detail': ({[key: string]: string});
}
