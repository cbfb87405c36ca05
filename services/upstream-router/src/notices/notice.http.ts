import {
  createHttpServer,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { contextFrom, inSpan, SpanKind } from '@agentpay/telemetry';
import type { NoticeService } from './notice.service.js';

/** Largest notice accepted; channel notices are a few hundred bytes. */
const BODY_LIMIT = 64 * 1024;

/**
 * The HTTP server channels deliver webhooks to: `POST /notices/:routeId` and `POST /notices/:routeId/:event`
 * (STP's `abono` and `cambio-estado`). The caller's address is the socket's, or X-Forwarded-For's when the
 * socket is a proxy listed in `trustedProxies` (TRUSTED_PROXIES): an allow-list must not trust a header
 * anyone can send.
 */
export function createNoticeServer(deps: {
  notices: NoticeService;
  logger: Logger;
  trustedProxies: readonly string[];
}): FastifyInstance {
  const http = createHttpServer(deps.logger, {
    bodyLimit: BODY_LIMIT,
    ...(deps.trustedProxies.length > 0 ? { trustProxy: [...deps.trustedProxies] } : {}),
  });
  // Signatures cover the exact bytes sent, so the body stays raw text until the adapter verified it.
  http.removeAllContentTypeParsers();
  http.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  http.get('/healthz', async () => ({ status: 'ok' }));
  const receive = async (
    request: FastifyRequest<{ Params: { routeId: string; event?: string } }>,
    reply: FastifyReply,
  ) => {
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
          event: request.params.event ?? '',
          headers: request.headers,
          rawBody,
          remoteAddress: request.ip,
        });
        span.setAttribute('http.response.status_code', result.status);
        return result;
      },
    );
    return reply.code(answer.status).send(answer.body);
  };
  http.post('/notices/:routeId', receive);
  http.post('/notices/:routeId/:event', receive);
  http.setErrorHandler((err, _request, reply) => {
    const status = (err as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ result: 'invalid_request' });
    deps.logger.error({ err }, 'notice handling failed');
    return reply.code(500).send({ result: 'error' });
  });
  return http;
}
