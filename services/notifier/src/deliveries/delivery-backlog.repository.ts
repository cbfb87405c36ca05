import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

// What the console's home page and callbacks page read of the whole notifier: the backlog, and the endpoints
// whose callbacks fail. Both read pending deliveries (the backlog itself, through the partial
// deliveries_endpoint_due_idx) and the deliveries given up inside a window (deliveries_gave_up_idx), never
// the delivered ones, so their cost follows the trouble, not the traffic.

export interface Backlog {
  /** Pending deliveries: waiting for their first attempt or a retry, or in flight. */
  pending: number;
  /** Pending and due now, not in flight: what the workers have yet to pick up. */
  due: number;
  inFlight: number;
  /** Pending after a failed attempt (waiting for a retry or in one). */
  failing: number;
  /** Given up (every retry failed) within the window. */
  gaveUp: number;
  /** Merchant endpoints (merchant and host:port) with a failing or given-up delivery. */
  failingEndpoints: number;
  /** When the longest-waiting due delivery fell due; null when none is due. */
  oldestDueAt: Date | null;
  /** When the oldest pending delivery was recorded; null when nothing is pending. */
  oldestPendingAt: Date | null;
}

// A pending delivery whose last attempt failed: what `failing` means in both reads.
const FAILING = sql`status = 'pending' and attempt_count > 0 and last_error is not null`;

export async function backlog(db: Kysely<Database>, windowHours: number): Promise<Backlog> {
  const { rows } = await sql<{
    pending: string;
    due: string;
    in_flight: string;
    failing: string;
    gave_up: string;
    failing_endpoints: string;
    oldest_due_at: Date | null;
    oldest_pending_at: Date | null;
  }>`
    with pending as (
      select mch_no, endpoint, next_attempt_at, created_at, attempt_count, last_error,
             lease_until is not null and lease_until > now() as in_flight
        from deliveries where status = 'pending'
    ),
    gave_up as (
      select mch_no, endpoint from deliveries
       where status = 'failed' and updated_at > now() - make_interval(hours => ${windowHours})
    )
    select (select count(*) from pending) as pending,
           (select count(*) from pending where not in_flight and next_attempt_at <= now()) as due,
           (select count(*) from pending where in_flight) as in_flight,
           (select count(*) from pending where attempt_count > 0 and last_error is not null) as failing,
           (select count(*) from gave_up) as gave_up,
           (select count(*) from (
              select mch_no, endpoint from pending where attempt_count > 0 and last_error is not null
              union select mch_no, endpoint from gave_up) e) as failing_endpoints,
           (select min(next_attempt_at) from pending where not in_flight and next_attempt_at <= now()) as oldest_due_at,
           (select min(created_at) from pending) as oldest_pending_at`.execute(db);
  const r = rows[0];
  return {
    pending: Number(r?.pending ?? 0),
    due: Number(r?.due ?? 0),
    inFlight: Number(r?.in_flight ?? 0),
    failing: Number(r?.failing ?? 0),
    gaveUp: Number(r?.gave_up ?? 0),
    failingEndpoints: Number(r?.failing_endpoints ?? 0),
    oldestDueAt: r?.oldest_due_at ?? null,
    oldestPendingAt: r?.oldest_pending_at ?? null,
  };
}

export interface FailingEndpoint {
  mchNo: string;
  /** host:port of the merchant's notifyUrl. */
  endpoint: string;
  /** Pending deliveries whose last attempt failed. */
  failing: number;
  /** Deliveries given up within the window. */
  gaveUp: number;
  /** The oldest pending failing delivery's creation; null when only given-up ones remain. */
  oldestPendingAt: Date | null;
  /** The most recently failed delivery of the endpoint: what its last attempt got, and which one it is. */
  lastFailedAt: Date;
  lastError: string | null;
  lastHttpStatus: number | null;
  latest: { id: string; kind: string; orderNo: string; notifyUrl: string; status: string };
}

/**
 * Endpoints whose callbacks fail, by merchant and host: pending deliveries whose last attempt failed and
 * deliveries given up within the window, most failures first.
 */
export async function failingEndpoints(
  db: Kysely<Database>,
  filter: { windowHours: number; mchNo?: string | undefined; limit: number },
): Promise<FailingEndpoint[]> {
  const mch = filter.mchNo ? sql`and mch_no = ${filter.mchNo}` : sql``;
  const { rows } = await sql<{
    mch_no: string;
    endpoint: string;
    failing: string;
    gave_up: string;
    oldest_pending_at: Date | null;
    last_failed_at: Date;
    id: string;
    kind: string;
    order_no: string;
    notify_url: string;
    status: string;
    last_error: string | null;
    last_http_status: number | null;
  }>`
    with failing as (
      select id, mch_no, endpoint, status, created_at, updated_at from deliveries where ${FAILING} ${mch}
      union all
      select id, mch_no, endpoint, status, created_at, updated_at from deliveries
       where status = 'failed' and updated_at > now() - make_interval(hours => ${filter.windowHours}) ${mch}
    ),
    grouped as (
      select mch_no, endpoint,
             count(*) filter (where status = 'pending') as failing,
             count(*) filter (where status = 'failed') as gave_up,
             min(created_at) filter (where status = 'pending') as oldest_pending_at,
             max(updated_at) as last_failed_at,
             (array_agg(id order by updated_at desc, id desc))[1] as latest_id
        from failing group by mch_no, endpoint
       order by count(*) desc, max(updated_at) desc, mch_no, endpoint
       limit ${filter.limit}
    )
    select g.mch_no, g.endpoint, g.failing, g.gave_up, g.oldest_pending_at, g.last_failed_at,
           d.id, d.kind, d.order_no, d.notify_url, d.status, d.last_error, d.last_http_status
      from grouped g join deliveries d on d.id = g.latest_id
     order by g.failing + g.gave_up desc, g.last_failed_at desc, g.mch_no, g.endpoint`.execute(db);
  return rows.map((r) => ({
    mchNo: r.mch_no,
    endpoint: r.endpoint,
    failing: Number(r.failing),
    gaveUp: Number(r.gave_up),
    oldestPendingAt: r.oldest_pending_at,
    lastFailedAt: r.last_failed_at,
    lastError: r.last_error,
    lastHttpStatus: r.last_http_status,
    latest: { id: r.id, kind: r.kind, orderNo: r.order_no, notifyUrl: r.notify_url, status: r.status },
  }));
}
