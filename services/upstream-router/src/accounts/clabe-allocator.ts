import { clabeCheckDigit } from '@agentpay/spei';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { ClabePoolExhaustedError } from '../adapters/channel-adapter.js';
import type { Database } from '../db/schema.js';

/** Account numbers under a 10-digit prefix: 7 digits (CONTRACT.md section 16). */
export const CLABE_POOL_SIZE = 10_000_000;
/** Largest block of numbers reserved at once while looking past numbers still in use. */
const MAX_BLOCK = 4096;

/**
 * An account holds its CLABE while open and through the quarantine after it ended. An account still open
 * long past its expiry (its order was never created, or nobody closed it) counts as ended at its expiry: a
 * deposit to it is returned anyway, and its number comes back after the quarantine.
 */
function inUse(quarantineDays: number) {
  const since = sql<Date>`now() - make_interval(days => ${quarantineDays})`;
  return (eb: ExpressionBuilder<Database, 'virtual_accounts'>) =>
    eb.or([eb.and([eb('status', '=', 'open'), eb('expires_at', '>', since)]), eb('ended_at', '>', since)]);
}

/** The CLABE of account `n` under a 10-digit prefix: prefix, 7 digits, check digit. */
export function clabeOf(prefix: string, n: number): string {
  const first17 = `${prefix}${String(n).padStart(7, '0')}`;
  return `${first17}${clabeCheckDigit(first17)}`;
}

/**
 * Allocates a CLABE on a route under `prefix` that no open account holds and no account ended within the
 * quarantine held: numbers are handed out in turn from a per-route cursor (one atomic update, so router
 * replicas never hand out the same number in a cycle), and a number still in use when the cursor comes
 * round again is skipped. The caller records the account; the unique index on open accounts backs it up.
 * Throws ClabePoolExhaustedError once a whole cycle found nothing free.
 */
export async function allocateClabe(
  db: Kysely<Database>,
  options: {
    routeId: string;
    prefix: string;
    quarantineDays: number;
    /** CLABEs never handed out (the company's own account). */
    reserved?: readonly string[];
    poolSize?: number;
  },
): Promise<string> {
  const pool = options.poolSize ?? CLABE_POOL_SIZE;
  await db
    .insertInto('clabe_cursors')
    .values({ route_id: options.routeId, next_number: 0 })
    .onConflict((oc) => oc.column('route_id').doNothing())
    .execute();
  let scanned = 0;
  let block = 1;
  while (scanned < pool) {
    const size = Math.min(block, pool - scanned);
    // The block [start, start + size) is this caller's alone in this cycle.
    const { rows } = await sql<{ start: number }>`update clabe_cursors
        set next_number = (next_number + ${size}) % ${pool}
        where route_id = ${options.routeId}
        returning (next_number - ${size} + ${pool}) % ${pool} as start`.execute(db);
    const start = Number(rows[0]?.start ?? 0);
    const candidates = Array.from({ length: size }, (_, i) => clabeOf(options.prefix, (start + i) % pool));
    const taken = await db
      .selectFrom('virtual_accounts')
      .select('clabe')
      .where('route_id', '=', options.routeId)
      .where('clabe', 'in', candidates)
      .where(inUse(options.quarantineDays))
      .execute();
    const used = new Set([...taken.map((t) => t.clabe), ...(options.reserved ?? [])]);
    const free = candidates.find((c) => !used.has(c));
    if (free) return free;
    scanned += size;
    block = Math.min(block * 2, MAX_BLOCK);
  }
  throw new ClabePoolExhaustedError(
    `route ${options.routeId}: every CLABE under its prefix is in use or in quarantine`,
  );
}

/** Share of a route's numbers in use or in quarantine, 0..1 (the pool-usage metric). */
export async function clabePoolUsage(
  db: Kysely<Database>,
  options: { routeId: string; quarantineDays: number; poolSize?: number },
): Promise<number> {
  const row = await db
    .selectFrom('virtual_accounts')
    .select(sql<number>`count(distinct clabe)::int`.as('used'))
    .where('route_id', '=', options.routeId)
    .where('assigned', '=', true)
    .where(inUse(options.quarantineDays))
    .executeTakeFirst();
  return (row?.used ?? 0) / (options.poolSize ?? CLABE_POOL_SIZE);
}
