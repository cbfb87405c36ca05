// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The circuit breaker of a route in the replica that answered (each replica keeps its own).
 */
export interface RouteHealth {
  /**
   * closed (takes traffic), open (out of selection), half_open (cool-down over: one probe call allowed).
   */
  'state'?: (string);
  /**
   * Unavailable answers counted toward opening: since the last success, within the breaker's window.
   */
  'recent_failures'?: (number);
  /**
   * Since this replica started: create calls that found the route unavailable, that it served, and
   * times selection left it out because the breaker was open.
   */
  'failures_total'?: (number | string | Long);
  'successes_total'?: (number | string | Long);
  'skipped_total'?: (number | string | Long);
  /**
   * When it last opened, and when a probe is (or was) allowed; '' when closed.
   */
  'opened_at'?: (string);
  'retry_at'?: (string);
}

/**
 * The circuit breaker of a route in the replica that answered (each replica keeps its own).
 */
export interface RouteHealth__Output {
  /**
   * closed (takes traffic), open (out of selection), half_open (cool-down over: one probe call allowed).
   */
  'state': (string);
  /**
   * Unavailable answers counted toward opening: since the last success, within the breaker's window.
   */
  'recent_failures': (number);
  /**
   * Since this replica started: create calls that found the route unavailable, that it served, and
   * times selection left it out because the breaker was open.
   */
  'failures_total': (string);
  'successes_total': (string);
  'skipped_total': (string);
  /**
   * When it last opened, and when a probe is (or was) allowed; '' when closed.
   */
  'opened_at': (string);
  'retry_at': (string);
}
