// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ReconciliationRouteResult {
  'route_id'?: (string);
  'lines'?: (number | string | Long);
  'matched'?: (number | string | Long);
  'pending'?: (number | string | Long);
  'discrepancies'?: (number | string | Long);
  /**
   * Deposits the channel sent straight back because the platform refused them on arrival (STP's devolver):
   * no money stayed, so they are neither matched nor discrepancies.
   */
  'returned'?: (number | string | Long);
  /**
   * succeeded, or failed: the route's statement could not be read or matched (its counts are then 0). A
   * failed route does not stop the others.
   */
  'state'?: (string);
  /**
   * Why a failed route failed, in words an operator may read (no channel words, no addresses); empty otherwise.
   */
  'error'?: (string);
}

export interface ReconciliationRouteResult__Output {
  'route_id': (string);
  'lines': (string);
  'matched': (string);
  'pending': (string);
  'discrepancies': (string);
  /**
   * Deposits the channel sent straight back because the platform refused them on arrival (STP's devolver):
   * no money stayed, so they are neither matched nor discrepancies.
   */
  'returned': (string);
  /**
   * succeeded, or failed: the route's statement could not be read or matched (its counts are then 0). A
   * failed route does not stop the others.
   */
  'state': (string);
  /**
   * Why a failed route failed, in words an operator may read (no channel words, no addresses); empty otherwise.
   */
  'error': (string);
}
