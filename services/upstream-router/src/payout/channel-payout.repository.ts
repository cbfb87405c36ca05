import { type Kysely, sql } from 'kysely';
import type { ChannelPayoutRow, Database, PayoutOutcome } from '../db/schema.js';

/** Records that a payout is being sent on a route, before it is sent; a resend keeps the first time. */
export async function recordPayoutSent(
  db: Kysely<Database>,
  routeId: string,
  transferNo: string,
  amount: number,
): Promise<void> {
  await db
    .insertInto('channel_payouts')
    .values({ route_id: routeId, transfer_no: transferNo, amount })
    .onConflict((oc) => oc.columns(['route_id', 'transfer_no']).doNothing())
    .execute();
}

/**
 * Records how a payout ended on a route, for the route's figures: from progress to success, fail or
 * returned, and from success to returned; anything else (progress again, a late fail after a success) changes
 * nothing, so answers arriving in any order leave the furthest one.
 */
export async function recordPayoutOutcome(
  db: Kysely<Database>,
  routeId: string,
  transferNo: string,
  status: string,
  finishedAt?: Date | undefined,
): Promise<void> {
  if (status !== 'success' && status !== 'fail' && status !== 'returned') return;
  const from: PayoutOutcome[] = status === 'returned' ? ['progress', 'success'] : ['progress'];
  await db
    .updateTable('channel_payouts')
    .set({ status, finished_at: finishedAt ?? sql<Date>`now()` })
    .where('route_id', '=', routeId)
    .where('transfer_no', '=', transferNo)
    .where('status', 'in', from)
    .execute();
}

/** Records what the channel said of a payout (its id, its tracking key); known values are never blanked. */
export async function recordPayoutRefs(
  db: Kysely<Database>,
  routeId: string,
  transferNo: string,
  refs: { upstreamRef?: string | undefined; claveRastreo?: string | undefined },
): Promise<void> {
  const set = {
    ...(refs.upstreamRef ? { upstream_ref: refs.upstreamRef } : {}),
    ...(refs.claveRastreo ? { clave_rastreo: refs.claveRastreo } : {}),
  };
  if (Object.keys(set).length === 0) return;
  await db
    .insertInto('channel_payouts')
    .values({ route_id: routeId, transfer_no: transferNo, ...set })
    .onConflict((oc) => oc.columns(['route_id', 'transfer_no']).doUpdateSet(set))
    .execute();
}

export function findPayout(
  db: Kysely<Database>,
  routeId: string,
  ref: { transferNo: string } | { upstreamRef: string },
): Promise<ChannelPayoutRow | undefined> {
  let query = db.selectFrom('channel_payouts').selectAll().where('route_id', '=', routeId);
  query =
    'transferNo' in ref
      ? query.where('transfer_no', '=', ref.transferNo)
      : query.where('upstream_ref', '=', ref.upstreamRef).where('upstream_ref', '<>', '');
  return query.executeTakeFirst();
}

/** Transfer numbers and channel ids of a route's payouts by their SPEI tracking keys. */
export async function payoutsByClaveRastreo(
  db: Kysely<Database>,
  routeId: string,
  keys: readonly string[],
): Promise<Map<string, { transferNo: string; upstreamRef: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('channel_payouts')
    .select(['clave_rastreo', 'transfer_no', 'upstream_ref'])
    .where('route_id', '=', routeId)
    .where('clave_rastreo', 'in', [...keys])
    .execute();
  return new Map(
    rows.map((r) => [r.clave_rastreo, { transferNo: r.transfer_no, upstreamRef: r.upstream_ref }]),
  );
}
