import { Gauge, type Registry } from '@agentpay/telemetry';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Reconciliation's gauges, read from the database at each scrape so every replica reports the same:
 * open discrepancies by kind and route, the age of the oldest open one, and each route's last
 * successful run.
 */
export function reconciliationMetrics(db: Kysely<Database>, registry: Registry): void {
  new Gauge({
    name: 'ledger_recon_open_discrepancies',
    help: 'Open reconciliation discrepancies, by kind and route',
    labelNames: ['kind', 'route'],
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ kind: string; route_id: string; n: number }>`
        select kind, route_id, count(*)::int as n from discrepancies where state = 'open' group by 1, 2`.execute(
        db,
      );
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, route: row.route_id }, row.n);
    },
  });
  new Gauge({
    name: 'ledger_recon_oldest_open_discrepancy_age_seconds',
    help: 'Age of the oldest open reconciliation discrepancy (0 when none is open)',
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ age: number | null }>`
        select extract(epoch from now() - min(created_at))::float8 as age from discrepancies where state = 'open'`.execute(
        db,
      );
      this.set(rows[0]?.age ?? 0);
    },
  });
  new Gauge({
    name: 'ledger_recon_last_success_timestamp_seconds',
    help: 'When the last successful reconciliation run of each route finished (Unix seconds)',
    labelNames: ['route'],
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ route_id: string; at: number }>`
        select route_id, extract(epoch from max(finished_at))::float8 as at from recon_runs
        where status = 'succeeded' group by 1`.execute(db);
      this.reset();
      for (const row of rows) this.set({ route: row.route_id }, row.at);
    },
  });
}
