// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One side of a discrepancy, as JSON text (camelCase fields; amounts in centavos): the platform's
 * record (orderNo or transferNo, mchNo when known, amount, status) or the channel's statement line.
 */
export interface Discrepancy {
  'id'?: (string);
  'kind'?: (string);
  'route_id'?: (string);
  'day'?: (string);
  /**
   * Centavos: the channel's amount when there is a line, else the platform's.
   */
  'amount'?: (number | string | Long);
  'platform_json'?: (string);
  'channel_json'?: (string);
  /**
   * open or resolved
   */
  'state'?: (string);
  'created_at'?: (string);
  /**
   * Empty while open.
   */
  'resolution_action'?: (string);
  'resolution_operator'?: (string);
  'resolution_reason'?: (string);
  'resolved_at'?: (string);
  /**
   * What the resolution did: the adjust record number, or the return payout's reference and outcome.
   */
  'resolution_ref'?: (string);
  /**
   * pending, success or fail for a return; empty otherwise.
   */
  'resolution_status'?: (string);
  /**
   * The order's merchant when one is known (from the order the deposit's virtual account belongs to).
   */
  'mch_no'?: (string);
  'order_no'?: (string);
  'transfer_no'?: (string);
  /**
   * The approval (four eyes) the resolution carried out; empty for one made without. The resolution's
   * operator is the person who asked, from the call's x-agentpay-actor metadata.
   */
  'resolution_approval_id'?: (string);
}

/**
 * One side of a discrepancy, as JSON text (camelCase fields; amounts in centavos): the platform's
 * record (orderNo or transferNo, mchNo when known, amount, status) or the channel's statement line.
 */
export interface Discrepancy__Output {
  'id': (string);
  'kind': (string);
  'route_id': (string);
  'day': (string);
  /**
   * Centavos: the channel's amount when there is a line, else the platform's.
   */
  'amount': (string);
  'platform_json': (string);
  'channel_json': (string);
  /**
   * open or resolved
   */
  'state': (string);
  'created_at': (string);
  /**
   * Empty while open.
   */
  'resolution_action': (string);
  'resolution_operator': (string);
  'resolution_reason': (string);
  'resolved_at': (string);
  /**
   * What the resolution did: the adjust record number, or the return payout's reference and outcome.
   */
  'resolution_ref': (string);
  /**
   * pending, success or fail for a return; empty otherwise.
   */
  'resolution_status': (string);
  /**
   * The order's merchant when one is known (from the order the deposit's virtual account belongs to).
   */
  'mch_no': (string);
  'order_no': (string);
  'transfer_no': (string);
  /**
   * The approval (four eyes) the resolution carried out; empty for one made without. The resolution's
   * operator is the person who asked, from the call's x-agentpay-actor metadata.
   */
  'resolution_approval_id': (string);
}
