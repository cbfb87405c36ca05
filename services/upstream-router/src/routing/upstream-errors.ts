import type { Logger } from '@agentpay/logger';
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
  context.logger.error(
    { err, routeId: context.routeId, operation: context.operation },
    'upstream call failed',
  );
  return new AppError('INTERNAL_ERROR');
}
