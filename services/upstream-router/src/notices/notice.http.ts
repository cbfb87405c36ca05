import { createHttpServer, type FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { contextFrom, inSpan, SpanKind } from '@agentpay/telemetry';
import type { NoticeService } from './notice.service.js';

/** Largest notice accepted; channel notices are a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;

/** The HTTP server channels deliver notices to: `POST /notices/:routeId`. */
export function buildNoticeServer(deps: { notices: NoticeService; logger: Logger }): FastifyInstance {
  const http = createHttpServer(deps.logger, { bodyLimit: BODY_LIMIT });
  // Signatures cover the exact bytes sent, so the body stays raw text until the adapter verified it.
  http.removeAllContentTypeParsers();
  http.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  http.get('/healthz', async () => ({ status: 'ok' }));
  http.post<{ Params: { routeId: string } }>('/notices/:routeId', async (request, reply) => {
    const rawBody = typeof request.body === 'string' ? request.body : '';
    // Continues the channel's trace when it sends a traceparent, else starts one; the NoticeReceived
    // event the notice causes carries it on to the service that applies it.
    const answer = await inSpan(
      'notice receive',
      {
        service: 'upstream-router',
        kind: SpanKind.SERVER,
        parent: contextFrom({
          traceparent: request.headers.traceparent,
          tracestate: request.headers.tracestate,
        }),
        attributes: { 'agentpay.route_id': request.params.routeId },
      },
      async (span) => {
        const result = await deps.notices.receive(request.params.routeId, {
          headers: request.headers,
          rawBody,
        });
        span.setAttribute('http.response.status_code', result.status);
        return result;
      },
    );
    return reply.code(answer.status).send(answer.body);
  });
  http.setErrorHandler((err, _request, reply) => {
    const status = (err as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ result: 'invalid_request' });
    deps.logger.error({ err }, 'notice handling failed');
    return reply.code(500).send({ result: 'error' });
  });
  return http;
}
