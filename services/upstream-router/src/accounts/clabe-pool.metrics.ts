import type { Logger } from '@agentpay/logger';
import { Gauge, type Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import type { AdapterRegistry } from '../adapters/registry.js';
import type { Database } from '../db/schema.js';
import { clabePoolUsage } from './clabe-allocator.js';

/** How often the usage is counted at most; a count reads every open or quarantined account of the route. */
const REFRESH_MS = 60_000;
/** Above this share a route's pool is logged as a warning at each refresh. */
const WARN_AT = 0.8;

/**
 * `clabe_pool_used_ratio{route}`: the share of each CLABE-assigning route's numbers that are open or in
 * quarantine. Operators alert well before 1, where pay starts answering NO_UPSTREAM_ROUTE on that route.
 */
export function registerClabePoolGauge(deps: {
  db: Kysely<Database>;
  adapters: AdapterRegistry;
  registry: Registry;
  logger: Logger;
  quarantineDays: number;
}): void {
  const { db, adapters, logger } = deps;
  let cached: { at: number; usage: Map<string, number> } | undefined;

  async function refresh(): Promise<Map<string, number>> {
    if (cached && Date.now() - cached.at < REFRESH_MS) return cached.usage;
    const routes = await db.selectFrom('routes').select(['id', 'adapter']).execute();
    const usage = new Map<string, number>();
    for (const route of routes) {
      if (adapters.get(route.adapter)?.accounts.kind !== 'assigned') continue;
      const used = await clabePoolUsage(db, { routeId: route.id, quarantineDays: deps.quarantineDays });
      usage.set(route.id, used);
      if (used >= WARN_AT)
        logger.warn({ routeId: route.id, used }, 'route is running out of CLABEs to assign');
    }
    cached = { at: Date.now(), usage };
    return usage;
  }

  new Gauge({
    name: 'clabe_pool_used_ratio',
    help: 'Share of a CLABE-assigning route’s account numbers open or in quarantine (pay fails on the route at 1)',
    labelNames: ['route'],
    registers: [deps.registry],
    async collect() {
      const usage = await refresh();
      this.reset();
      for (const [route, used] of usage) this.set({ route }, used);
    },
  });
}
