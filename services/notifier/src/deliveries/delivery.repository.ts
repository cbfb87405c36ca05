import { sql, type Transaction } from 'kysely';
import type { Database, DeliveryStatus } from '../db/schema.js';
import { abandonInFlightAttempts } from './delivery-lease.repository.js';
import { lockOrders } from './order-lock.repository.js';

// Recording deliveries: one per event, superseding the older changes of its order that still wait.

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

/** What recording one event did: nothing (its event was recorded before), or the delivery it made. */
export type RecordOutcome =
  | { kind: 'duplicate' }
  | { kind: 'recorded'; id: string; status: 'pending' | 'skipped' | 'superseded'; superseded: string[] };

/**
 * Records a batch of events' deliveries in the caller's transaction (`recordDeliveries` in
 * delivery.service.ts opens it), whatever the batch's size or order gives the
 * same statuses as recording its events one by one: each is inserted once (idempotent on event id), is
 * superseded at birth when a newer change of its order is already recorded (also by a newer one in the
 * same batch), and otherwise supersedes its order's older deliveries that wait (never one in flight).
 * The caller acks the events only after this commits, so a crash in between means a redelivery that
 * changes nothing.
 *
 * One transaction and five statements for the whole batch instead of six round trips per event: at a
 * thousand events a second, the per-event transactions were the notifier's bottleneck.
 */
export async function insertDeliveries(
  trx: Transaction<Database>,
  deliveries: readonly NewDelivery[],
): Promise<RecordOutcome[]> {
  await lockOrders(trx, deliveries);

  const inserted = await trx
    .insertInto('deliveries')
    .values(deliveries.map(deliveryRow))
    // Also drops a second copy of an event within the batch (a redelivery that overtook the first).
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning(['id', 'event_id'])
    .execute();
  const idOf = new Map(inserted.map((r) => [r.event_id, r.id]));
  const fresh = deliveries.flatMap((d) =>
    d.status === 'pending' && idOf.has(d.eventId) ? [idOf.get(d.eventId)!] : [],
  );

  // Stale at birth: a newer change of the order is recorded (skipped deliveries do not count).
  const { rows: stale } = await sql<{ id: string; by: string }>`
    with newest as (
      select f.id,
             (select n.id from deliveries n
              where n.kind = f.kind and n.order_no = f.order_no and n.version > f.version
                and n.status <> 'skipped'
              order by n.version desc limit 1) as by
      from deliveries f
      where f.id = any(${fresh}::uuid[]))
    update deliveries d
    set status = 'superseded', superseded_by = newest.by, next_attempt_at = null, updated_at = now()
    from newest
    where d.id = newest.id and newest.by is not null
    returning d.id, newest.by`.execute(trx);
  const staleIds = new Set(stale.map((r) => r.id));

  // The rest are the newest of their orders: each supersedes the older deliveries that wait.
  const newestIds = fresh.filter((id) => !staleIds.has(id));
  const { rows: superseded } = await sql<{ id: string; by: string }>`
    with target as (
      select distinct on (o.id) o.id, f.id as by
      from deliveries f
      join deliveries o on o.kind = f.kind and o.order_no = f.order_no and o.version < f.version
      where f.id = any(${newestIds}::uuid[])
        and o.status = 'pending' and (o.lease_until is null or o.lease_until <= now())
      order by o.id, f.version desc)
    update deliveries d
    set status = 'superseded', superseded_by = target.by, next_attempt_at = null,
        lease_until = null, lease_owner = null, claim_token = null, updated_at = now()
    from target
    where d.id = target.id
    returning d.id, target.by`.execute(trx);
  // An expired lease's attempt can no longer finish.
  await abandonInFlightAttempts(
    trx,
    superseded.map((r) => r.id),
  );
  const supersededBy = new Map<string, string[]>();
  for (const r of superseded) supersededBy.set(r.by, [...(supersededBy.get(r.by) ?? []), r.id]);

  const claimed = new Set<string>();
  return deliveries.map((d): RecordOutcome => {
    const id = idOf.get(d.eventId);
    // The first copy of an event in the batch owns its row; any later copy is a duplicate.
    if (id === undefined || claimed.has(id)) return { kind: 'duplicate' };
    claimed.add(id);
    if (d.status === 'skipped') return { kind: 'recorded', id, status: 'skipped', superseded: [] };
    if (staleIds.has(id)) return { kind: 'recorded', id, status: 'superseded', superseded: [] };
    return { kind: 'recorded', id, status: 'pending', superseded: supersededBy.get(id) ?? [] };
  });
}
