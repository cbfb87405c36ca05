import type { Logger } from '@agentpay/logger';
import { AppError } from '@agentpay/wire';
import { UpstreamUnavailableError } from '../adapters/channel-adapter.js';

/**
 * Runs `attempt` on each route in turn until one answers. A route that is unavailable
 * (UpstreamUnavailableError) passes the call to the next; any other failure ends the search.
 * When every route was unavailable: UPSTREAM_UNAVAILABLE (nothing was created upstream).
 */
export async function withFailover<R extends { id: string }, T>(
  routes: readonly R[],
  attempt: (route: R) => Promise<T>,
  context: { logger: Logger; operation: string },
): Promise<{ route: R; result: T }> {
  for (const route of routes) {
    try {
      return { route, result: await attempt(route) };
    } catch (err) {
      if (!(err instanceof UpstreamUnavailableError)) throw err;
      context.logger.warn(
        { routeId: route.id, operation: context.operation, reason: err.message },
        'route unavailable, trying the next one',
      );
    }
  }
  throw new AppError('UPSTREAM_UNAVAILABLE');
}
