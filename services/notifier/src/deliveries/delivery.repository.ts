import { type Kysely, sql, type Transaction } from 'kysely';
import { DELIVERIES_CHANNEL } from '../db/migrations/20261122T0600_deliveries.js';
import type { AttemptOutcome, AttemptRow, Database, DeliveryRow, DeliveryStatus } from '../db/schema.js';

export interface NewDelivery {
  eventId: string;
  kind: 'pay' | 'transfer';
  mchNo: string;
  appId: string;
  orderNo: string;
  version: number;
  fromStatus: string;
  toStatus: string;
  occurredAt: Date | null;
  notifyUrl: string;
  endpoint: string;
  traceId: string;
  body: string;
  status: Extract<DeliveryStatus, 'pending' | 'skipped'>;
}

/** A delivery this replica has leased for one attempt. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  kind: 'pay' | 'transfer';
  orderNo: string;
  version: number;
  notifyUrl: string;
  endpoint: string;
  traceId: string;
  body: string;
  claimToken: string;
  attemptId: number;
  attemptNumber: number;
  roundAttempts: number;
}

/**
 * Serialises everything that decides supersession for one order (recording its events, finishing its
 * attempts), so two of them can never each miss the other's uncommitted row.
 */
export async function lockOrder(trx: Transaction<Database>, kind: string, orderNo: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`agentpay.notifier.order:${kind}:${orderNo}`}, 0))`.execute(
    trx,
  );
}

/** The row a new delivery is inserted as; a pending one is due at once. */
export function deliveryRow(d: NewDelivery) {
  return {
    event_id: d.eventId,
    kind: d.kind,
    mch_no: d.mchNo,
    app_id: d.appId,
    order_no: d.orderNo,
    version: d.version,
    from_status: d.fromStatus,
    to_status: d.toStatus,
    occurred_at: d.occurredAt,
    notify_url: d.notifyUrl,
    endpoint: d.endpoint,
    trace_id: d.traceId,
    body: d.body,
    status: d.status,
    next_attempt_at: d.status === 'pending' ? sql<Date>`now()` : null,
  };
}

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

/** Attempts left `in_flight` by a replica that died (or lost its lease) can no longer finish. */
export async function abandonInFlightAttempts(
  trx: Transaction<Database>,
  deliveryIds: string[],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  await trx
    .updateTable('delivery_attempts')
    .set({
      outcome: 'abandoned',
      finished_at: sql`now()`,
      error: 'the notifier stopped before recording the reply',
    })
    .where('delivery_id', 'in', deliveryIds)
    .where('outcome', '=', 'in_flight')
    .execute();
}

const CLAIM_LOCK = sql`hashtextextended('agentpay.notifier.claim', 0)`;

/**
 * Leases up to `slots` due deliveries for one attempt each and records the attempts as in flight.
 * - Claims run one at a time across replicas (a transaction-scoped advisory lock, held for milliseconds),
 *   so the per-endpoint limit counts every replica's leases exactly; `skip locked` still keeps a claim from
 *   waiting on rows that a consumer or an admin resend is changing.
 * - Each endpoint with due deliveries is visited (a skip scan of the endpoint index) and gives at most its
 *   free slots' worth, oldest first, from its own index range: the cost of a claim grows with the number
 *   of endpoints, never with one endpoint's backlog, so a dead endpoint's pile of due callbacks can
 *   neither fill the claim nor slow it down for the others.
 * - A delivery waits while an older version of its order is in flight, so a merchant sees an order's
 *   changes in order; when that attempt fails, the older one is superseded instead.
 * - An expired lease is fair game: its replica died or hung, and the attempt it left is marked abandoned.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  opts: { owner: string; slots: number; perEndpoint: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  if (opts.slots <= 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    const { rows } = await sql<{
      id: string;
      event_id: string;
      kind: 'pay' | 'transfer';
      order_no: string;
      version: number;
      notify_url: string;
      endpoint: string;
      trace_id: string;
      body: string;
      claim_token: string;
      attempt_count: number;
      round_attempts: number;
      was_leased: boolean;
    }>`
      with recursive busy as (
        select endpoint, count(*)::int as n
        from deliveries
        where status = 'pending' and lease_until > now()
        group by endpoint
      ),
      -- The endpoints that have a due delivery, one index probe each.
      due_endpoints(endpoint) as (
        (select endpoint from deliveries
         where status = 'pending' and next_attempt_at <= now()
         order by endpoint limit 1)
        union all
        select (select d.endpoint from deliveries d
                where d.status = 'pending' and d.next_attempt_at <= now() and d.endpoint > e.endpoint
                order by d.endpoint limit 1)
        from due_endpoints e
        where e.endpoint is not null
      ),
      candidates as (
        select c.id, c.endpoint, c.next_attempt_at
        from due_endpoints e
        left join busy b on b.endpoint = e.endpoint
        cross join lateral (
          select d.id, d.endpoint, d.next_attempt_at
          from deliveries d
          where d.status = 'pending' and d.endpoint = e.endpoint and d.next_attempt_at <= now()
            and (d.lease_until is null or d.lease_until <= now())
            and not exists (
              select 1 from deliveries o
              where o.order_no = d.order_no and o.kind = d.kind and o.version < d.version
                and o.status = 'pending' and o.lease_until > now())
          order by d.next_attempt_at, d.id
          limit greatest(0, ${opts.perEndpoint} - coalesce(b.n, 0))
        ) c
        where e.endpoint is not null
      ),
      picked as (
        select d.id, d.lease_until is not null as was_leased
        from deliveries d
        join candidates c on c.id = d.id
        where d.status = 'pending' and (d.lease_until is null or d.lease_until <= now())
        order by c.next_attempt_at, c.id
        limit ${opts.slots}
        for update of d skip locked
      )
      update deliveries d
      set lease_until = now() + make_interval(secs => ${opts.leaseMs / 1000}),
          lease_owner = ${opts.owner},
          claim_token = gen_random_uuid(),
          attempt_count = d.attempt_count + 1,
          round_attempts = d.round_attempts + 1,
          updated_at = now()
      from picked
      where d.id = picked.id
      returning d.id, d.event_id, d.kind, d.order_no, d.version, d.notify_url, d.endpoint, d.trace_id, d.body,
                d.claim_token, d.attempt_count, d.round_attempts, picked.was_leased`.execute(trx);
    if (rows.length === 0) return [];

    await abandonInFlightAttempts(
      trx,
      rows.filter((r) => r.was_leased).map((r) => r.id),
    );
    const attempts = await trx
      .insertInto('delivery_attempts')
      .values(
        rows.map((r) => ({
          delivery_id: r.id,
          number: r.attempt_count,
          worker: opts.owner,
          outcome: 'in_flight' as const,
        })),
      )
      .returning(['id', 'delivery_id'])
      .execute();
    const attemptOf = new Map(attempts.map((a) => [a.delivery_id, a.id]));
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      kind: r.kind,
      orderNo: r.order_no,
      version: r.version,
      notifyUrl: r.notify_url,
      endpoint: r.endpoint,
      traceId: r.trace_id,
      body: r.body,
      claimToken: r.claim_token,
      attemptId: attemptOf.get(r.id)!,
      attemptNumber: r.attempt_count,
      roundAttempts: r.round_attempts,
    }));
  });
}

/** Milliseconds until the next pending delivery falls due (0 when one is due now), or undefined if none waits. */
export async function msUntilNextDue(db: Kysely<Database>): Promise<number | undefined> {
  // Not greatest(0, …) in SQL: greatest ignores NULL, so with nothing pending it answered 0 and the idle
  // worker claimed in a tight loop (hundreds of transactions a second).
  const { rows } = await sql<{ ms: number | null }>`
    select ceil(extract(epoch from min(next_attempt_at) - now()) * 1000)::int as ms
    from deliveries
    where status = 'pending' and next_attempt_at > now()`.execute(db);
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, ms);
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

/** Drops this replica's remaining leases (at shutdown), so its deliveries go out without waiting for expiry. */
export async function releaseLeases(db: Kysely<Database>, owner: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('deliveries')
      .set({ lease_until: null, lease_owner: null, claim_token: null, updated_at: sql`now()` })
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    await abandonInFlightAttempts(
      trx,
      rows.map((r) => r.id),
    );
    return rows.length;
  });
}

/** Deliveries of an order number (either kind, or one), newest first. */
export async function deliveriesByOrder(
  db: Kysely<Database>,
  filter: {
    orderNo: string;
    kind?: 'pay' | 'transfer' | undefined;
    mchNo?: string | undefined;
    limit: number;
  },
): Promise<DeliveryRow[]> {
  let query = db.selectFrom('deliveries').selectAll().where('order_no', '=', filter.orderNo);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.mchNo) query = query.where('mch_no', '=', filter.mchNo);
  return query.orderBy('created_at', 'desc').orderBy('version', 'desc').limit(filter.limit).execute();
}

export async function deliveryById(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The attempts of these deliveries, newest first. */
export async function attemptsOf(db: Kysely<Database>, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Makes a delivery due now with a fresh retry schedule, from any state but in flight or skipped; wakes
 * every replica. Returns the updated row, or undefined when nothing changed.
 */
export async function rescheduleNow(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('deliveries')
      .set({
        status: 'pending',
        next_attempt_at: sql<Date>`now()`,
        round_attempts: 0,
        superseded_by: null,
        delivered_at: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '<>', 'skipped')
      .where((eb) =>
        eb.or([
          eb('status', '<>', 'pending'),
          eb('lease_until', 'is', null),
          eb('lease_until', '<=', sql<Date>`now()`),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (row) await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(trx);
    return row;
  });
}
