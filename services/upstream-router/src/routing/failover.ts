import type { Logger } from '@agentpay/logger';
import { AppError } from '@agentpay/wire';
import { ClabePoolExhaustedError, UpstreamUnavailableError } from '../adapters/channel-adapter.js';
import type { Breakers } from './circuit-breaker.js';

/**
 * Runs `attempt` on each route in turn until one answers. A route that is unavailable
 * (UpstreamUnavailableError) passes the call to the next; any other failure ends the search.
 * Each attempt goes through the route's circuit breaker: a route whose breaker turned it away since
 * selection (another call took its probe) is skipped, and every outcome is reported to it.
 * `unhealthy` marks an answer that still counts against the route (a payout kept after a timeout).
 * A route with no CLABE left to assign is passed over without counting against its breaker (it is full,
 * not down). When no route answered: UPSTREAM_UNAVAILABLE (nothing was created upstream), or
 * NO_UPSTREAM_ROUTE when every route that could serve was full.
 */
export async function withFailover<R extends { id: string }, T>(
  routes: readonly R[],
  attempt: (route: R) => Promise<T>,
  context: { logger: Logger; operation: string; breakers: Breakers; unhealthy?: (result: T) => boolean },
): Promise<{ route: R; result: T }> {
  const { breakers } = context;
  let full = 0;
  for (const route of routes) {
    const pass = breakers.enter(route.id);
    if (!pass) {
      breakers.skipped(route.id);
      continue;
    }
    let result: T;
    try {
      result = await attempt(route);
    } catch (err) {
      if (err instanceof ClabePoolExhaustedError) {
        pass.succeeded();
        full++;
        context.logger.error(
          { routeId: route.id, operation: context.operation, reason: err.message },
          'route has no CLABE left to assign, trying the next one',
        );
        continue;
      }
      if (!(err instanceof UpstreamUnavailableError)) {
        // The channel answered (with something we refuse) or this code failed: not an outage.
        pass.succeeded();
        throw err;
      }
      pass.failed();
      context.logger.warn(
        { routeId: route.id, operation: context.operation, reason: err.message },
        'route unavailable, trying the next one',
      );
      continue;
    }
    if (context.unhealthy?.(result)) pass.failed();
    else pass.succeeded();
    return { route, result };
  }
  throw new AppError(full > 0 && full === routes.length ? 'NO_UPSTREAM_ROUTE' : 'UPSTREAM_UNAVAILABLE');
}
