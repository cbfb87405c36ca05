import type { Logger } from '@agentpay/logger';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, RouteRow } from '../db/schema.js';
import { eligibleRoutes, findRoute, payoutRoutes } from '../routes/route.repository.js';
import type { Breakers } from './circuit-breaker.js';
import { attemptOrder } from './route-selection.js';

/**
 * Which routes a call may use, best first. Creates pick among eligible routes whose circuit breaker
 * admits them; every later call for an order goes to the route recorded on it, whatever its breaker says.
 * Routes are read from the database on every call (one small indexed query), so an operator's change
 * applies to the next order on every replica without a cache to invalidate.
 */
export function createRouteSelector(
  db: Kysely<Database>,
  options: { breakers: Breakers; logger: Logger; random?: () => number },
) {
  const { breakers, logger } = options;
  const random = options.random ?? Math.random;

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
    /** Routes for a pay-in method; PAY_METHOD_NOT_AVAILABLE when none serves the merchant. */
    async forMethod(mchNo: string, method: string): Promise<RouteRow[]> {
      const routes = await eligibleRoutes(db, { mchNo, method });
      if (routes.length === 0) throw new AppError('PAY_METHOD_NOT_AVAILABLE');
      return ordered(routes);
    },

    /**
     * Routes for a payee type and, for bank types, a public payee code each route can map;
     * PAYEE_TYPE_NOT_AVAILABLE / PAYEE_CODE_NOT_AVAILABLE otherwise.
     */
    async forPayee(mchNo: string, payeeType: string, publicCode: string | undefined): Promise<RouteRow[]> {
      const routes = await eligibleRoutes(db, { mchNo, payeeType });
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
