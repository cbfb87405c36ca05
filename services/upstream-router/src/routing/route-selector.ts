import type { Logger } from '@agentpay/logger';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, RouteRow } from '../db/schema.js';
import { eligibleRoutes, findRoute, payoutRoutes } from '../routes/route.repository.js';
import type { Breakers } from './circuit-breaker.js';
import { attemptOrder } from './route-selection.js';

/** Longest a replica serves the eligible routes it read, should it miss a change's NOTIFY. */
const ELIGIBLE_TTL_MS = 1_000;
/** Cached (merchant, method or payee type) answers kept at most; past it the cache starts over. */
const ELIGIBLE_MAX_ENTRIES = 10_000;

/**
 * Which routes a call may use, best first. Creates pick among eligible routes whose circuit breaker
 * admits them; every later call for an order goes to the route recorded on it, whatever its breaker says.
 * The eligible routes of a (merchant, method or payee type) are cached for at most a second and dropped
 * at every change: the admin service drops them in its own replica before it answers, and a trigger's
 * NOTIFY (`invalidate`, wired in main.ts) drops them in every other replica within milliseconds. So an
 * operator's change applies to the next order, and a replica whose LISTEN is down lags by a second at
 * most, while a create needs no route query of its own.
 */
export function createRouteSelector(
  db: Kysely<Database>,
  options: { breakers: Breakers; logger: Logger; random?: () => number },
) {
  const { breakers, logger } = options;
  const random = options.random ?? Math.random;
  const eligible = new Map<string, { at: number; routes: Promise<RouteRow[]> }>();

  const eligibleCached = (filter: { mchNo: string; method?: string; payeeType?: string }) => {
    const key = `${filter.mchNo}\u0000${filter.method ?? ''}\u0000${filter.payeeType ?? ''}`;
    const now = Date.now();
    const hit = eligible.get(key);
    if (hit && now - hit.at < ELIGIBLE_TTL_MS) return hit.routes;
    if (eligible.size >= ELIGIBLE_MAX_ENTRIES) eligible.clear();
    const routes = eligibleRoutes(db, filter);
    const entry = { at: now, routes };
    eligible.set(key, entry);
    // A failed read is not remembered.
    routes.catch(() => {
      if (eligible.get(key) === entry) eligible.delete(key);
    });
    return routes;
  };

  const ordered = (routes: RouteRow[]) => {
    const order = attemptOrder(routes, random);
    // Routes exist for the request but none may take traffic now (all weighted 0).
    if (order.length === 0) throw new AppError('NO_UPSTREAM_ROUTE');
    const admitted = order.filter((route) => {
      if (breakers.admits(route.id)) return true;
      breakers.skipped(route.id);
      return false;
    });
    // Every route that would take the call is known to be down: nothing is tried, nothing is created.
    if (admitted.length === 0) {
      logger.warn({ routeIds: order.map((r) => r.id) }, 'every eligible route has its circuit breaker open');
      throw new AppError('UPSTREAM_UNAVAILABLE');
    }
    return admitted;
  };

  return {
    /** Forgets every cached answer: routes or their merchants changed. */
    invalidate(): void {
      eligible.clear();
    },

    /** Routes for a pay-in method; PAY_METHOD_NOT_AVAILABLE when none serves the merchant. */
    async forMethod(mchNo: string, method: string): Promise<RouteRow[]> {
      const routes = await eligibleCached({ mchNo, method });
      if (routes.length === 0) throw new AppError('PAY_METHOD_NOT_AVAILABLE');
      return ordered(routes);
    },

    /**
     * Routes for a payee type and, for bank types, a public payee code each route can map;
     * PAYEE_TYPE_NOT_AVAILABLE / PAYEE_CODE_NOT_AVAILABLE otherwise.
     */
    async forPayee(mchNo: string, payeeType: string, publicCode: string | undefined): Promise<RouteRow[]> {
      const routes = await eligibleCached({ mchNo, payeeType });
      if (routes.length === 0) throw new AppError('PAYEE_TYPE_NOT_AVAILABLE');
      if (publicCode === undefined) return ordered(routes);
      const mapping = routes.filter((r) => r.code_map[publicCode] !== undefined);
      if (mapping.length === 0) throw new AppError('PAYEE_CODE_NOT_AVAILABLE');
      return ordered(mapping);
    },

    /**
     * Every route a payout could have gone to, whatever its state or breaker: where to look for a payout
     * whose route was never recorded. NO_UPSTREAM_ROUTE when no route serves payouts at all.
     */
    async payoutCandidates(): Promise<RouteRow[]> {
      const routes = await payoutRoutes(db);
      if (routes.length === 0) throw new AppError('NO_UPSTREAM_ROUTE');
      return routes;
    },

    /** The route an order was created on, enabled or not: its orders are finished where they started. */
    async byId(routeId: string): Promise<RouteRow> {
      const route = routeId ? await findRoute(db, routeId) : undefined;
      if (!route) throw new AppError('NO_UPSTREAM_ROUTE');
      return route;
    },
  };
}

export type RouteSelector = ReturnType<typeof createRouteSelector>;
