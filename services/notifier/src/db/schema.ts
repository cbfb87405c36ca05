import type { Generated, Selectable } from 'kysely';

/** Where a delivery stands. `pending` with a live lease means an attempt is in flight. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'superseded', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['in_flight', 'succeeded', 'failed', 'abandoned'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One callback to send: one per status-change event. */
export interface DeliveriesTable {
  id: Generated<string>;
  event_id: string;
  kind: 'pay' | 'transfer';
  mch_no: string;
  app_id: string;
  order_no: string;
  version: number;
  from_status: string;
  to_status: string;
  occurred_at: Date | null;
  notify_url: string;
  /** host:port of notify_url, the unit of per-endpoint concurrency ('' when there is none). */
  endpoint: string;
  trace_id: string;
  /** The signed JSON body every attempt sends. */
  body: string;
  status: DeliveryStatus;
  attempt_count: Generated<number>;
  round_attempts: Generated<number>;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  lease_owner: string | null;
  claim_token: string | null;
  last_http_status: number | null;
  last_error: string | null;
  superseded_by: string | null;
  delivered_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** One HTTP exchange (or refusal) of a delivery. */
export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  /** 1-based, over the delivery's whole life (resends included). */
  number: number;
  /** The replica that made it. */
  worker: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
  outcome: AttemptOutcome;
  http_status: number | null;
  latency_ms: number | null;
  /** First bytes of the reply body. */
  response_excerpt: string | null;
  error: string | null;
}

export interface Database {
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
}

export type DeliveryRow = Selectable<DeliveriesTable>;
export type AttemptRow = Selectable<DeliveryAttemptsTable>;
