// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One run of one route and day: its state and what it counted.
 */
export interface ReconciliationRun {
  'id'?: (string);
  'route_id'?: (string);
  'day'?: (string);
  /**
   * running, succeeded or failed
   */
  'status'?: (string);
  'started_at'?: (string);
  /**
   * Empty while running.
   */
  'finished_at'?: (string);
  'lines'?: (number | string | Long);
  'matched'?: (number | string | Long);
  'pending'?: (number | string | Long);
  'discrepancies'?: (number | string | Long);
  'returned'?: (number | string | Long);
  /**
   * Why a failed run failed; empty otherwise.
   */
  'error'?: (string);
}

/**
 * One run of one route and day: its state and what it counted.
 */
export interface ReconciliationRun__Output {
  'id': (string);
  'route_id': (string);
  'day': (string);
  /**
   * running, succeeded or failed
   */
  'status': (string);
  'started_at': (string);
  /**
   * Empty while running.
   */
  'finished_at': (string);
  'lines': (string);
  'matched': (string);
  'pending': (string);
  'discrepancies': (string);
  'returned': (string);
  /**
   * Why a failed run failed; empty otherwise.
   */
  'error': (string);
}
