import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations/index.js';
import type { Database } from '../db/schema.js';
import { admitRequest } from './admission.repository.js';

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('gateway_admission', migrations));
});

afterAll(() => drop?.());

const admit = (mchNo: string, nonce: string | undefined, limitPerS = 0) =>
  admitRequest(db, { mchNo, nonce, limitPerS, nonceTtlSeconds: 60 });

/** Waits for the start of the next wall-clock second, so a test's requests share one rate window. */
async function freshSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

const expire = (nonce: string) =>
  sql`update nonces set expires_at = now() - interval '1 second' where nonce = ${nonce}`.execute(db);

describe.each([
  ['without a rate limit', 0],
  ['under a rate limit', 1000],
])('nonces, %s', (_label, limit) => {
  it('lets exactly one of many concurrent uses of the same nonce through', async () => {
    await freshSecond();
    const nonce = `same-${limit}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => admit('M1', nonce, limit)));
    expect(results.filter((r) => !r.nonceUsed)).toHaveLength(1);
    expect(results.every((r) => !r.limited)).toBe(true);
  });

  it('keeps nonces per merchant: another merchant may use the same value', async () => {
    const nonce = `shared-${limit}`;
    expect(await admit('M1', nonce, limit)).toEqual({ limited: false, nonceUsed: false });
    expect(await admit('M2', nonce, limit)).toEqual({ limited: false, nonceUsed: false });
    expect(await admit('M1', nonce, limit)).toEqual({ limited: false, nonceUsed: true });
  });

  it('accepts a nonce again once its TTL has passed', async () => {
    const nonce = `old-${limit}`;
    expect((await admit('M3', nonce, limit)).nonceUsed).toBe(false);
    await expire(nonce);
    expect((await admit('M3', nonce, limit)).nonceUsed).toBe(false);
    expect((await admit('M3', nonce, limit)).nonceUsed).toBe(true);
  });
});

describe('rate limit', () => {
  it('admits exactly the limit of concurrent requests in one second, with or without nonces', async () => {
    for (const withNonce of [false, true]) {
      await freshSecond();
      const mchNo = `R${withNonce ? 'N' : ''}`;
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) => admit(mchNo, withNonce ? `n${i}` : undefined, 10)),
      );
      expect(results.filter((r) => !r.limited)).toHaveLength(10);
      expect(results.every((r) => !r.nonceUsed)).toBe(true);
    }
  });

  it('a limited request does not spend its nonce: the same body retried next second goes through', async () => {
    await freshSecond();
    expect((await admit('R2', 'first', 1)).limited).toBe(false);
    expect(await admit('R2', 'retry-me', 1)).toEqual({ limited: true, nonceUsed: false });
    await freshSecond();
    expect(await admit('R2', 'retry-me', 1)).toEqual({ limited: false, nonceUsed: false });
    expect(await admit('R2', 'retry-me', 1000)).toEqual({ limited: false, nonceUsed: true });
  });

  it('counts nothing without a limit', async () => {
    await admit('R3', undefined, 0);
    const counted = await db.selectFrom('rate_windows').select('count').where('mch_no', '=', 'R3').execute();
    expect(counted).toEqual([]);
  });
});
