import { type Kysely, sql, type Transaction } from 'kysely';
import type { AttemptOutcome, Database } from '../db/schema.js';
import type { ClaimedDelivery } from './delivery-lease.repository.js';

// Settling an attempt: its result, and what becomes of its delivery.

/** The newest delivery of the order with a version above `version` (skipped ones do not count). */
export async function newerDelivery(
  trx: Transaction<Database>,
  d: { kind: string; orderNo: string; version: number },
): Promise<string | undefined> {
  const row = await trx
    .selectFrom('deliveries')
    .select('id')
    .where('kind', '=', d.kind as 'pay' | 'transfer')
    .where('order_no', '=', d.orderNo)
    .where('version', '>', d.version)
    .where('status', '<>', 'skipped')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export interface AttemptResult {
  outcome: Extract<AttemptOutcome, 'succeeded' | 'failed'>;
  httpStatus: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
}

/** Records the attempt's result on its row. */
export async function recordAttemptResult(
  trx: Transaction<Database>,
  attemptId: number,
  result: AttemptResult,
): Promise<void> {
  await trx
    .updateTable('delivery_attempts')
    .set({
      outcome: result.outcome,
      finished_at: sql`now()`,
      http_status: result.httpStatus,
      latency_ms: result.latencyMs,
      response_excerpt: result.excerpt,
      error: result.error,
    })
    .where('id', '=', attemptId)
    .where('outcome', '=', 'in_flight')
    .execute();
}

export type NextState =
  | { status: 'succeeded' }
  | { status: 'failed' }
  | { status: 'superseded'; by: string }
  | { status: 'pending'; delayMs: number };

/**
 * Moves a delivery on after an attempt and drops its lease, but only while this claim still holds it: a
 * replica whose lease ran out (and was taken over) must not overwrite the newer claim's state.
 */
export async function settleDelivery(
  trx: Transaction<Database>,
  d: { id: string; claimToken: string },
  next: NextState,
  last: { httpStatus: number | null; error: string | null },
): Promise<boolean> {
  const result = await trx
    .updateTable('deliveries')
    .set({
      status: next.status,
      next_attempt_at:
        next.status === 'pending' ? sql<Date>`now() + make_interval(secs => ${next.delayMs / 1000})` : null,
      superseded_by: next.status === 'superseded' ? next.by : null,
      delivered_at: next.status === 'succeeded' ? sql<Date>`now()` : null,
      lease_until: null,
      lease_owner: null,
      claim_token: null,
      last_http_status: last.httpStatus,
      last_error: last.error,
      updated_at: sql`now()`,
    })
    .where('id', '=', d.id)
    .where('claim_token', '=', d.claimToken)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A successful attempt waiting to be settled: its claim and the reply. */
export interface SucceededAttempt {
  claim: Pick<ClaimedDelivery, 'id' | 'claimToken' | 'attemptId'>;
  httpStatus: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
}

/**
 * Settles many successful attempts in one statement (its own transaction, one round trip): the attempt
 * rows still in flight get their result, and each delivery becomes succeeded and drops its lease, but only
 * while its claim token still matches, exactly as `recordAttemptResult` + `settleDelivery` do for one.
 * Returns the claim tokens it settled; the others had lost their lease.
 *
 * No per-order lock, unlike `settleAttempt`: that lock serialises supersede decisions, and a success
 * makes none and feeds none. `newerDelivery` counts a newer delivery whatever its status but skipped, so
 * pending or succeeded makes no difference to it; `recordDeliveries` supersedes only deliveries that are
 * pending and not leased, and a concurrent one is ordered against this update by the row lock (whichever
 * commits second re-checks `status`/`claim_token` and changes nothing).
 */
export async function settleSucceeded(
  db: Kysely<Database>,
  attempts: SucceededAttempt[],
): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  // Data-modifying CTEs always run to completion, referenced or not.
  const { rows } = await sql<{ claim_token: string }>`
    with done as (
      select * from unnest(
        ${attempts.map((a) => a.claim.id)}::uuid[], ${attempts.map((a) => a.claim.claimToken)}::uuid[],
        ${attempts.map((a) => a.claim.attemptId)}::bigint[], ${attempts.map((a) => a.httpStatus)}::int[],
        ${attempts.map((a) => a.latencyMs)}::int[], ${attempts.map((a) => a.excerpt)}::text[],
        ${attempts.map((a) => a.error)}::text[]
      ) as t(delivery_id, claim_token, attempt_id, http_status, latency_ms, excerpt, error)
    ),
    recorded as (
      update delivery_attempts a
      set outcome = 'succeeded', finished_at = now(), http_status = done.http_status,
          latency_ms = done.latency_ms, response_excerpt = done.excerpt, error = done.error
      from done
      where a.id = done.attempt_id and a.outcome = 'in_flight'
    )
    update deliveries d
    set status = 'succeeded', next_attempt_at = null, superseded_by = null, delivered_at = now(),
        lease_until = null, lease_owner = null, claim_token = null,
        last_http_status = done.http_status, last_error = done.error, updated_at = now()
    from done
    where d.id = done.delivery_id and d.claim_token = done.claim_token and d.status = 'pending'
    returning done.claim_token`.execute(db);
  return new Set(rows.map((r) => r.claim_token));
}
