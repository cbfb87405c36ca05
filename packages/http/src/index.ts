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
 * matters themselves, with the trace id) so a busy gateway does not write two lines per request, and
 * no per-request child logger either: nothing logs through `request.log`, and a pino child with
 * redaction costs a few KB and microseconds on every request.
 */
export function createHttpServer(
  logger: Logger,
  options: Omit<FastifyServerOptions, 'logger' | 'loggerInstance'> = {},
): FastifyInstance {
  return Fastify({
    ...options,
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // A route's own `logLevel` (e.g. a silent /healthz) still gets its child.
    childLoggerFactory: (logger, _bindings, options) => (options.level ? logger.child({}, options) : logger),
  });
}

/** The port a listening server is bound to. */
export function boundPort(app: FastifyInstance): number {
  return (app.server.address() as { port: number }).port;
}

/** Anything that renders Prometheus text, e.g. a prom-client Registry. */
export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

/** Serves `GET /metrics` from `source`. */
export function addMetricsRoute(app: FastifyInstance, source: MetricsSource): void {
  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', source.contentType).send(await source.metrics()),
  );
}

/**
 * A small HTTP server for a gRPC-only service: `GET /metrics` for Prometheus and `GET /healthz` for
 * humans and load balancers (Kubernetes probes use gRPC health). Answers once listening.
 */
export async function startOpsServer(opts: {
  logger: Logger;
  host: string;
  port: number;
  metrics: MetricsSource;
}): Promise<FastifyInstance> {
  const app = createHttpServer(opts.logger);
  addMetricsRoute(app, opts.metrics);
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ host: opts.host, port: opts.port });
  return app;
}
