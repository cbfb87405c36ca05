import type { Socket } from 'node:net';
import type { Logger } from '@agentpay/logger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { describeInputProblem, findInputProblem } from './input.js';

export type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
export { bearerTokenMatches } from './auth.js';
export { csvCell, csvRow } from './csv.js';
export { describeInputProblem, findInputProblem, type InputProblem, MAX_INPUT_DEPTH } from './input.js';

/** A request the HTTP layer refused before any route ran, or while the server is closing. */
export interface Refusal {
  status: 400 | 503;
  /**
   * `malformed_request`: the bytes are not an HTTP request a route can take (the parser's client errors, a
   * bad URL); `invalid_input`: a parameter or body value nothing downstream can hold (see findInputProblem);
   * `closing`: the server is shutting down.
   */
  kind: 'malformed_request' | 'invalid_input' | 'closing';
  detail: string;
}

/** Renders a refusal as a reply body. `request` is absent when the HTTP parser refused the bytes. */
export type RefusalBody = (
  refusal: Refusal,
  request?: FastifyRequest,
) => { contentType: string; body: string };

export interface HttpServerOptions extends Omit<FastifyServerOptions, 'logger' | 'loggerInstance'> {
  /** How refusals look; by default `{"error", "message"}` JSON. The gateway answers signed envelopes. */
  refusalBody?: RefusalBody;
}

const plainRefusal: RefusalBody = (refusal) => ({
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({
    error: refusal.kind === 'closing' ? 'unavailable' : 'bad_request',
    message: refusal.detail,
  }),
});

/**
 * A Fastify server on the service's pino logger, with per-request logging off (services log what
 * matters themselves, with the trace id) so a busy gateway does not write two lines per request, and
 * no per-request child logger either: nothing logs through `request.log`, and a pino child with
 * redaction costs a few KB and microseconds on every request.
 *
 * Every failure of the HTTP layer answers through `refusalBody`: the parser's client errors (a malformed
 * method token, oversized headers), a bad URL, a request arriving while the server closes, and any route
 * parameter, query or body value holding what Postgres text, the canonical string or JSON cannot
 * (U+0000, a lone surrogate, a number that overflowed to Infinity, nesting deeper than MAX_INPUT_DEPTH),
 * checked before any handler runs so no service has to remember it.
 */
export function createHttpServer(logger: Logger, options: HttpServerOptions = {}): FastifyInstance {
  const { refusalBody = plainRefusal, ...fastifyOptions } = options;
  const answer = (reply: FastifyReply, refusal: Refusal) => {
    const { contentType, body } = refusalBody(refusal, reply.request);
    return reply.code(refusal.status).header('content-type', contentType).send(body);
  };

  const app = Fastify({
    ...fastifyOptions,
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // A route's own `logLevel` (e.g. a silent /healthz) still gets its child.
    childLoggerFactory: (logger, _bindings, options) => (options.level ? logger.child({}, options) : logger),
    // Fastify's own 503 while closing is unsigned; the onRequest hook below answers it instead.
    return503OnClosing: false,
    clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      logger.debug({ err }, 'malformed HTTP request');
      if (socket.writable) {
        const { contentType, body } = refusalBody({
          status: 400,
          kind: 'malformed_request',
          detail: 'malformed HTTP request',
        });
        socket.write(
          `HTTP/1.1 400 Bad Request\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
    frameworkErrors: (_error, _request, reply) =>
      answer(reply, { status: 400, kind: 'malformed_request', detail: 'malformed URL' }),
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    if (request.raw.httpVersionMajor !== 2) reply.header('connection', 'close');
    return answer(reply, { status: 503, kind: 'closing', detail: 'shutting down; retry' });
  });
  app.addHook('preValidation', async (request, reply) => {
    const problem =
      findInputProblem(request.params) ??
      findInputProblem(request.query) ??
      findInputProblem(request.body) ??
      rawJsonProblem(request.body);
    if (problem) {
      return answer(reply, { status: 400, kind: 'invalid_input', detail: describeInputProblem(problem) });
    }
  });
  return app;
}

// A route that keeps its body as text (to verify a signature over the exact bytes) parses it later; what
// that parse would yield is checked here all the same.
function rawJsonProblem(body: unknown) {
  if (typeof body !== 'string' || !/^\s*[[{]/.test(body)) return undefined;
  try {
    return findInputProblem(JSON.parse(body));
  } catch {
    return undefined;
  }
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
