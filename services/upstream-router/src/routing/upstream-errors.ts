import type { Logger } from '@agentpay/logger';
import { isDependencyUnavailable } from '@agentpay/proto';
import { AppError, isAppError } from '@agentpay/wire';
import { UpstreamUnavailableError } from '../adapters/channel-adapter.js';

/**
 * The one place channel failures become platform codes. The channel's words (route, codes, messages)
 * go to the log only: gRPC details reach merchants through the gateway.
 */
export function toAppError(
  err: unknown,
  context: { logger: Logger; operation: string; routeId?: string },
): AppError {
  if (isAppError(err)) return err;
  if (err instanceof UpstreamUnavailableError) {
    context.logger.warn(
      { routeId: context.routeId, operation: context.operation, reason: err.message },
      'upstream unavailable',
    );
    return new AppError('UPSTREAM_UNAVAILABLE');
  }
  // The router's own Postgres went away under the call: the operation did not complete, so the caller
  // may try again (50003), as it may when any service's database is down; never a 500.
  if (isDependencyUnavailable(err)) {
    context.logger.warn(
      { err, routeId: context.routeId, operation: context.operation },
      'a dependency is unavailable',
    );
    return new AppError('SERVICE_UNAVAILABLE');
  }
  context.logger.error(
    { err, routeId: context.routeId, operation: context.operation },
    'upstream call failed',
  );
  return new AppError('INTERNAL_ERROR');
}
