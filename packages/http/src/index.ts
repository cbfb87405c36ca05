import type { Logger } from '@agentpay/logger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';

export type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A Fastify server on the service's pino logger, with per-request logging off (services log what
 * matters themselves, with the trace id) so a busy gateway does not write two lines per request.
 */
export function createHttpServer(
  logger: Logger,
  options: Omit<FastifyServerOptions, 'logger' | 'loggerInstance'> = {},
): FastifyInstance {
  return Fastify({
    ...options,
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
}

/** The port a listening server is bound to. */
export function boundPort(app: FastifyInstance): number {
  return (app.server.address() as { port: number }).port;
}
