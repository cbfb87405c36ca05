import type { FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { ChannelError } from '../errors.js';

/** Every refusal answers `{ error, message }`; unexpected failures are logged and answered 500. */
export function registerErrorHandling(http: FastifyInstance, logger: Logger): void {
  http.setErrorHandler((err, _request, reply) => {
    if (err instanceof ChannelError)
      return reply.code(err.status).send({ error: err.code, message: err.message });
    const status = (err as { statusCode?: number }).statusCode;
    // Fastify's own refusals: unparseable JSON, wrong content type, body too large.
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ error: 'invalid_request', message: (err as Error).message });
    logger.error({ err }, 'unexpected error in sandbox request');
    return reply.code(500).send({ error: 'internal', message: 'internal error' });
  });
  http.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ error: 'not_found', message: 'no such path' }),
  );
}
