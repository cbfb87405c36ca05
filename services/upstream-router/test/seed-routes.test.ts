import { migratedTestDatabase } from '@agentpay/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routerEnv } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { seedRoutes } from '../src/routes/seed-routes.js';

// The routes a fresh database gets: the sandbox's and the STP emulator's outside production, none in it.

let db: Kysely<Database>;
let drop: () => Promise<void>;
const development = routerEnv.parse({ NODE_ENV: 'development' });

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('router_seed_routes', migrations));
});
afterAll(() => drop?.());
beforeEach(async () => {
  await db.deleteFrom('route_merchants').execute();
  await db.deleteFrom('routes').execute();
  await db.deleteFrom('router_meta').execute();
});

const routeIds = async () =>
  (await db.selectFrom('routes').select('id').orderBy('id').execute()).map((r) => r.id);

describe('seeded routes', () => {
  it('outside production, a fresh database gets the sandbox route and the STP emulator route', async () => {
    expect(development.production).toBe(false);
    expect((await seedRoutes(db, development)).sort()).toEqual(['sandbox-default', 'stp-default']);
    expect(await routeIds()).toEqual(['sandbox-default', 'stp-default']);
  });

  it('in production, a fresh database gets no route at all: no sandbox route taking payouts', async () => {
    expect(await seedRoutes(db, { ...development, NODE_ENV: 'production', production: true })).toEqual([]);
    expect(await routeIds()).toEqual([]);
  });
});
