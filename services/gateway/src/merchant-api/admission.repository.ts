import { executePrepared } from '@agentpay/db';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface Admission {
  /** The merchant's requests in this one-second window, this one included, exceed its limit. */
  limited: boolean;
  /** The nonce was used before within its TTL (false when the request brought none, or was limited). */
  nonceUsed: boolean;
}

export interface AdmissionRequest {
  mchNo: string;
  /** Requests per second the merchant may make; 0 means no limit (nothing is counted). */
  limitPerS: number;
  /** The request's `nonceStr`, if it sent one. */
  nonce: string | undefined;
  nonceTtlSeconds: number;
}

const ADMITTED: Admission = { limited: false, nonceUsed: false };

/** $1 merchant, $2 nonce, $3 nonce expiry, $4 limit: the nonce is claimed only within the limit. */
const COUNT_AND_CLAIM = `
  with counted as (
    insert into rate_windows (mch_no, window_start, count)
    values ($1, date_trunc('second', now()), 1)
    on conflict (mch_no, window_start) do update set count = rate_windows.count + 1
    returning count
  ), claimed as (
    insert into nonces (mch_no, nonce, expires_at)
    select $1, $2, $3::timestamptz from counted where counted.count <= $4
    on conflict (mch_no, nonce) do update set expires_at = excluded.expires_at
      where nonces.expires_at < now()
    returning 1
  )
  select counted.count, exists (select 1 from claimed) as claimed from counted`;

/**
 * Counts a signed request against its merchant's per-second limit and claims its nonce, in one
 * statement (one round trip) shared by every gateway replica:
 * - the count is an upsert on (merchant, current second), so concurrent replicas never lose one;
 * - the nonce is an upsert on (merchant, nonce) that takes over only an expired entry, so exactly one
 *   of many concurrent uses wins;
 * - a request over the limit does not claim its nonce, so the merchant can retry it unchanged after
 *   the 429 (it still counts: a client hammering the limit keeps being limited).
 */
export async function admitRequest(db: Kysely<Database>, request: AdmissionRequest): Promise<Admission> {
  const { mchNo, limitPerS, nonce } = request;
  const expiresAt = new Date(Date.now() + request.nonceTtlSeconds * 1000);
  if (limitPerS > 0 && nonce !== undefined) {
    const { rows } = await executePrepared(
      db,
      CompiledQuery.raw(COUNT_AND_CLAIM, [mchNo, nonce, expiresAt, limitPerS]) as CompiledQuery<{
        count: number;
        claimed: boolean;
      }>,
    );
    const row = rows[0]!;
    const limited = row.count > limitPerS;
    return { limited, nonceUsed: !limited && !row.claimed };
  }
  if (limitPerS > 0) {
    const { rows } = await executePrepared(
      db,
      db
        .insertInto('rate_windows')
        .values({ mch_no: mchNo, window_start: sql<Date>`date_trunc('second', now())`, count: 1 })
        .onConflict((oc) =>
          oc.columns(['mch_no', 'window_start']).doUpdateSet({ count: sql<number>`rate_windows.count + 1` }),
        )
        .returning('count'),
    );
    return { limited: rows[0]!.count > limitPerS, nonceUsed: false };
  }
  if (nonce !== undefined) {
    const { rows } = await executePrepared(
      db,
      db
        .insertInto('nonces')
        .values({ mch_no: mchNo, nonce, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .columns(['mch_no', 'nonce'])
            .doUpdateSet({ expires_at: expiresAt })
            .where('nonces.expires_at', '<', sql<Date>`now()`),
        )
        .returning('nonce'),
    );
    return { limited: false, nonceUsed: rows.length === 0 };
  }
  return ADMITTED;
}
