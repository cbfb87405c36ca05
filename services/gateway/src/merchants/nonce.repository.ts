import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Records a nonce for a merchant. True when this is its first use within the TTL (a stale, expired
 * entry is taken over). One statement, so two replicas racing on the same nonce cannot both win.
 */
export async function claimNonce(
  db: Kysely<Database>,
  mchNo: string,
  nonce: string,
  ttlSeconds: number,
): Promise<boolean> {
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  const claimed = await db
    .insertInto('nonces')
    .values({ mch_no: mchNo, nonce, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .columns(['mch_no', 'nonce'])
        .doUpdateSet({ expires_at: expiresAt })
        .where('nonces.expires_at', '<', sql<Date>`now()`),
    )
    .returning('nonce')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Deletes expired nonces; answers how many. */
export async function purgeExpiredNonces(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('nonces').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
