import { createLogger } from '@agentpay/logger';
import { migratedTestDatabase } from '@agentpay/testing';
import { AppError } from '@agentpay/wire';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allocateClabe, clabeOf, clabePoolUsage } from '../src/accounts/clabe-allocator.js';
import { insertVirtualAccount, retireStaleAccount } from '../src/accounts/virtual-account.repository.js';
import { ClabePoolExhaustedError, UpstreamUnavailableError } from '../src/adapters/channel-adapter.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { createBreakers } from '../src/routing/circuit-breaker.js';
import { withFailover } from '../src/routing/failover.js';

// The CLABE pool of a route on a pool of a few numbers, so running out is cheap to reach.

let db: Kysely<Database>;
let drop: () => Promise<void>;
const PREFIX = '6461801234';
const logger = createLogger({ service: 'test', level: 'silent' });

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('router_clabe_pool', migrations));
});
afterAll(() => drop?.());
beforeEach(async () => {
  await sql`truncate virtual_accounts, clabe_cursors`.execute(db);
});

async function open(orderNo: string, clabe: string) {
  await insertVirtualAccount(db, {
    orderNo,
    routeId: 'r',
    clabe,
    amount: 100,
    assigned: true,
    upstreamRef: '',
    expiresAt: new Date(Date.now() + 60_000),
  });
}

const allocate = (poolSize = 4) =>
  allocateClabe(db, { routeId: 'r', prefix: PREFIX, quarantineDays: 180, poolSize });

describe('the CLABE pool of a route', () => {
  it('hands out every free number once, then says it is exhausted, and the usage reaches 1', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const clabe = await allocate();
      await open(`P${i}`, clabe);
      seen.push(clabe);
    }
    expect(new Set(seen)).toEqual(new Set([0, 1, 2, 3].map((n) => clabeOf(PREFIX, n))));
    await expect(allocate()).rejects.toBeInstanceOf(ClabePoolExhaustedError);
    expect(await clabePoolUsage(db, { routeId: 'r', quarantineDays: 180, poolSize: 4 })).toBe(1);
  });

  it('gives a number back only after its quarantine', async () => {
    for (let i = 0; i < 4; i++) await open(`P${i}`, await allocate());
    await sql`update virtual_accounts set status = 'closed', ended_at = now() - interval '10 days' where order_no = 'P1'`.execute(
      db,
    );
    await expect(allocate()).rejects.toBeInstanceOf(ClabePoolExhaustedError);
    await sql`update virtual_accounts set ended_at = now() - interval '181 days' where order_no = 'P1'`.execute(
      db,
    );
    expect(await allocate()).toBe(clabeOf(PREFIX, 1));
  });

  it('an account left open long past its expiry gives its number back after the quarantine', async () => {
    for (let i = 0; i < 4; i++) await open(`P${i}`, await allocate());
    await sql`update virtual_accounts set expires_at = now() - interval '10 days' where order_no = 'P2'`.execute(
      db,
    );
    await expect(allocate()).rejects.toBeInstanceOf(ClabePoolExhaustedError);
    await sql`update virtual_accounts set expires_at = now() - interval '181 days' where order_no = 'P2'`.execute(
      db,
    );
    const clabe = await allocate();
    expect(clabe).toBe(clabeOf(PREFIX, 2));
    // The stale account is ended at its expiry, so a new open account may take the CLABE.
    await retireStaleAccount(db, 'r', clabe, 180);
    await open('P-NEW', clabe);
    const rows = await db
      .selectFrom('virtual_accounts')
      .select(['order_no', 'status'])
      .where('clabe', '=', clabe)
      .execute();
    expect(rows.sort((a, b) => a.order_no.localeCompare(b.order_no))).toEqual([
      { order_no: 'P-NEW', status: 'open' },
      { order_no: 'P2', status: 'closed' },
    ]);
  });

  it('skips reserved numbers', async () => {
    expect(
      await allocateClabe(db, {
        routeId: 'r',
        prefix: PREFIX,
        quarantineDays: 180,
        poolSize: 4,
        reserved: [clabeOf(PREFIX, 0)],
      }),
    ).toBe(clabeOf(PREFIX, 1));
  });

  it('concurrent callers never get the same number', async () => {
    const got = await Promise.all(Array.from({ length: 30 }, () => allocate(1000)));
    expect(new Set(got).size).toBe(30);
  });
});

describe('failover when a route is full', () => {
  const breakers = createBreakers({ failureThreshold: 1, windowMs: 60_000, coolDownMs: 60_000 });
  const routes = [{ id: 'full' }, { id: 'other' }];

  it('moves on to the next route without counting against the full one', async () => {
    const { route } = await withFailover(
      routes,
      async (r) => {
        if (r.id === 'full') throw new ClabePoolExhaustedError('full');
        return 'ok';
      },
      { logger, operation: 'test', breakers },
    );
    expect(route.id).toBe('other');
    expect(breakers.snapshot('full').state).toBe('closed');
  });

  it('answers NO_UPSTREAM_ROUTE when every route is full, UPSTREAM_UNAVAILABLE when one was down', async () => {
    const full = withFailover(routes, async () => Promise.reject(new ClabePoolExhaustedError('full')), {
      logger,
      operation: 'test',
      breakers: createBreakers({ failureThreshold: 5, windowMs: 60_000, coolDownMs: 60_000 }),
    });
    await expect(full).rejects.toMatchObject({ codeName: 'NO_UPSTREAM_ROUTE' });
    await expect(full).rejects.toBeInstanceOf(AppError);
    const mixed = withFailover(
      routes,
      async (r) =>
        Promise.reject(
          r.id === 'full' ? new ClabePoolExhaustedError('full') : new UpstreamUnavailableError('down'),
        ),
      {
        logger,
        operation: 'test',
        breakers: createBreakers({ failureThreshold: 5, windowMs: 60_000, coolDownMs: 60_000 }),
      },
    );
    await expect(mixed).rejects.toMatchObject({ codeName: 'UPSTREAM_UNAVAILABLE' });
  });
});
