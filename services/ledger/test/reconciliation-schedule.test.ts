import { createDb } from '@agentpay/db';
import { createLogger } from '@agentpay/logger';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { startReconciliation } from '../src/reconciliation/reconciliation.service.js';
import { connectReconRouter } from '../src/reconciliation/router.client.js';
import { useReconciliation } from './support/reconciliation.js';
import { line, statementKey } from './support/statement-router.js';

// The daily schedule: the previous day once per route across replicas, from RECON_TIME on; a route whose
// channel is down fails alone, wherever it stands in the list.

const t = useReconciliation();

describe('the daily schedule', () => {
  it('runs the previous day once per route across replicas, only from RECON_TIME on', async () => {
    const routes = ['r-sched-1', 'r-sched-2'];
    const day = '2026-11-16';
    t.router.routes = routes;
    for (const R of routes) {
      t.router.statements.set(statementKey(R, day), {
        lines: [
          line({
            kind: 'deposit',
            platform_ref: '',
            amount: 7,
            applied: false,
            at: new Date(`${day}T18:00:00Z`),
          }),
        ],
      });
    }
    const replicasDb = createDb<Database>(t.database.url, { poolSize: 6 });
    const client = connectReconRouter(t.router.address);
    let clock = new Date('2026-11-17T11:59:00Z'); // 05:59 in Mexico City
    const replica = () =>
      startReconciliation({
        db: replicasDb,
        logger: createLogger({ service: 'recon-test', level: 'silent' }),
        router: client,
        timeZone: 'America/Mexico_City',
        graceMs: 3_600_000,
        batch: 100,
        reconTime: '06:00',
        intervalMs: 0,
        clock: { now: () => clock, sleep: async () => {} },
      });
    const replicas = [replica(), replica(), replica()];
    const runsOf = () =>
      t.db
        .selectFrom('recon_runs')
        .select(['route_id', 'status'])
        .where('day', '=', day)
        .orderBy('route_id')
        .execute();
    try {
      expect(await Promise.all(replicas.map((r) => r.runScheduled()))).toEqual([0, 0, 0]);
      expect(await runsOf()).toEqual([]);
      clock = new Date('2026-11-17T12:00:00Z'); // 06:00
      const ran = await Promise.all(replicas.map((r) => r.runScheduled()));
      expect(ran.reduce((a, b) => a + b, 0)).toBe(2);
      expect(await runsOf()).toEqual(routes.map((route_id) => ({ route_id, status: 'succeeded' })));
      // Later rounds find the day done.
      expect(await replicas[0]?.runScheduled()).toBe(0);
      expect(await runsOf()).toHaveLength(2);
      // A route whose channel is down fails once, and is not tried again at every round.
      t.router.routes = [...routes, 'r-sched-down'];
      t.router.statements.set(statementKey('r-sched-down', day), { lines: [], failAfter: 0 });
      expect(await replicas[1]?.runScheduled()).toBe(0);
      expect(await replicas[2]?.runScheduled()).toBe(0);
      const down = await t.db
        .selectFrom('recon_runs')
        .select('status')
        .where('route_id', '=', 'r-sched-down')
        .execute();
      expect(down).toEqual([{ status: 'failed' }]);

      // The next day, the channel that is down is listed first: the routes after it still run.
      clock = new Date('2026-11-18T12:00:00Z');
      const next = '2026-11-17';
      t.router.routes = ['r-sched-down', ...routes];
      t.router.statements.set(statementKey('r-sched-down', next), { lines: [], failAfter: 0 });
      for (const R of routes) t.router.statements.set(statementKey(R, next), { lines: [] });
      expect(await replicas[0]?.runScheduled()).toBe(2);
      const nextRuns = await t.db
        .selectFrom('recon_runs')
        .select(['route_id', 'status'])
        .where('day', '=', next)
        .orderBy('route_id')
        .execute();
      expect(nextRuns).toEqual([
        { route_id: 'r-sched-1', status: 'succeeded' },
        { route_id: 'r-sched-2', status: 'succeeded' },
        { route_id: 'r-sched-down', status: 'failed' },
      ]);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
      client.close();
      await replicasDb.destroy();
    }
  });
});
