import { randomBytes } from 'node:crypto';
import { type BlockList, isIPv6 } from 'node:net';
import {
  createHttpServer,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { isDependencyUnavailable } from '@agentpay/proto';
import { type RequestMetrics, SpanStatusCode, withContext } from '@agentpay/telemetry';
import {
  AppError,
  type CodeName,
  Codes,
  type createEnvelopeSigner,
  type Envelope,
  isAppError,
  parseWireTime,
  verifyObject,
} from '@agentpay/wire';
import type { z } from 'zod';
import type { MerchantService } from '../merchants/index.js';
import type { Admission } from './admission.repository.js';
import type { MerchantRoute } from './merchant-api.routes.js';
import { registerOpenApiRoutes } from './openapi/openapi.routes.js';
import { commonParams } from './schemas.js';
import { type TraceContext, traceFrom } from './trace.js';

type EnvelopeSigner = ReturnType<typeof createEnvelopeSigner>;

export interface MerchantApiDeps {
  logger: Logger;
  signer: EnvelopeSigner;
  merchants: MerchantService;
  routes: MerchantRoute[];
  /**
   * Counts a signed request against its merchant's per-second limit (shared by every replica) and
   * claims its nonce, in one round trip (admission.repository.ts).
   */
  admit(request: { mchNo: string; limitPerS: number; nonce: string | undefined }): Promise<Admission>;
  /** Requests per second per merchant when the merchant has no limit of its own; 0 disables. */
  defaultRateLimitPerS: number;
  /** Readiness of everything the gateway needs; the body explains a failure. */
  health(): Promise<{ ok: boolean; checks: Record<string, boolean> }>;
  timeZone: string;
  reqTimeWindowS: number;
  bodyLimitBytes: number;
  /** true: any proxy; a list: X-Forwarded-For only through these addresses or CIDRs; false: the TCP peer. */
  trustProxy: boolean | string[];
  /** Counts requests by route and envelope code, with latency. */
  metrics?: RequestMetrics | undefined;
}

/** HTTP status of an envelope code (docs/merchant-api.md "Codes"): business outcomes, failures included, are 200. */
export function httpStatusFor(name: CodeName): number {
  switch (name) {
    case 'TOO_MANY_REQUESTS':
      return 429;
    case 'SERVICE_UNAVAILABLE':
      return 503;
    case 'INTERNAL_ERROR':
      return 500;
    default:
      return 200;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    trace: TraceContext;
    /** The envelope code answered, for metrics and the span. */
    envelopeCode: number;
    startedAt: number;
  }
}

/** A request body failure found while parsing, answered before anything else is looked at. */
class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly codeName: CodeName,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'request';
  // An array index reads as JavaScript writes it: items[3].amount.
  const field =
    issue.path
      .map((part, i) =>
        typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`,
      )
      .join('') || 'request';
  return `${field} (${issue.message})`;
}

/** The merchant API: ten POST routes behind the check order of docs/merchant-api.md "Requests"; every reply signed. */
export function buildMerchantApi(deps: MerchantApiDeps): FastifyInstance {
  const { logger, signer } = deps;
  const app = createHttpServer(logger, {
    bodyLimit: deps.bodyLimitBytes,
    trustProxy: deps.trustProxy,
    // What the HTTP layer refuses before a route runs is a signed envelope like every other reply.
    refusalBody: (refusal, request) => {
      const name: CodeName = refusal.kind === 'closing' ? 'SERVICE_UNAVAILABLE' : 'INVALID_BODY';
      if (request) request.envelopeCode = Codes[name].code;
      const traceId = request?.trace?.traceId ?? randomBytes(16).toString('hex');
      return {
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify(signer.error(name, traceId, refusal.detail)),
      };
    },
  });

  app.decorateRequest('trace', undefined as unknown as TraceContext);
  app.decorateRequest('envelopeCode', 0);
  app.decorateRequest('startedAt', 0);
  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = performance.now();
    request.trace = traceFrom(request.headers, request.routeOptions.url ?? 'unknown');
    // A wrong path or method is answered before the body is read: its body, empty or not, is not the point.
    if (request.is404) return notFound(request, reply);
  });
  app.addHook('onResponse', async (request, reply) => {
    // Undefined when the HTTP layer refused the request before the hook above ran (server closing).
    if (!request.trace) return;
    const { span } = request.trace;
    span.setAttribute('http.response.status_code', reply.statusCode);
    span.setAttribute('agentpay.code', request.envelopeCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    deps.metrics?.observe(
      { route: request.routeOptions.url ?? 'unknown' },
      request.envelopeCode,
      request.startedAt,
    );
  });

  function send(reply: FastifyReply, status: number, envelope: Envelope) {
    reply.request.envelopeCode = envelope.code;
    return reply
      .code(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(envelope));
  }

  function fail(
    reply: FastifyReply,
    request: FastifyRequest,
    name: CodeName,
    detail?: string,
    status?: number,
  ) {
    return send(reply, status ?? httpStatusFor(name), signer.error(name, request.trace.traceId, detail));
  }

  // JSON only, parsed here so that every body failure still gets a signed envelope.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new BodyError(400, 'INVALID_BODY', 'not parseable JSON'), undefined);
    }
  });

  // A path may take a larger body than the rest (transfer/batch: 1,000 items).
  const bodyLimitOf = (path: string | undefined) =>
    deps.routes.find((r) => r.path === path)?.bodyLimitBytes ?? deps.bodyLimitBytes;

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof BodyError) return fail(reply, request, error.codeName, error.detail, error.status);
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return fail(reply, request, 'UNSUPPORTED_CONTENT_TYPE', 'use application/json', 415);
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return fail(
          reply,
          request,
          'INVALID_BODY',
          `larger than ${bodyLimitOf(request.routeOptions.url)} bytes`,
          413,
        );
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return fail(reply, request, 'INVALID_BODY', 'empty body', 400);
      default:
        if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
          return fail(reply, request, 'INVALID_BODY', 'malformed request', 400);
        }
        logger.error({ err: error, traceId: request.trace?.traceId }, 'unexpected error');
        return fail(reply, request, 'INTERNAL_ERROR');
    }
  });

  // A method a path does not take answers 405 naming the ones it does, whatever the method's name (TRACE,
  // PROPFIND, QUERY, ...): Fastify routes only methods it knows, so the not-found handler is the one place
  // all of them reach.
  const allowed = new Map<string, Set<string>>();
  app.addHook('onRoute', (options) => {
    const methods = allowed.get(options.url) ?? new Set<string>();
    for (const method of [options.method].flat()) methods.add(method);
    allowed.set(options.url, methods);
  });
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const methods = allowed.get(request.url.split('?', 1)[0] ?? '');
    if (methods) {
      const allow = [...methods].join(', ');
      return fail(reply.header('allow', allow), request, 'INVALID_PARAMETER', `use ${allow}`, 405);
    }
    const shown = request.url.length > 200 ? `${request.url.slice(0, 200)}...` : request.url;
    return fail(reply, request, 'INVALID_PARAMETER', `unknown path ${shown}`, 404);
  };
  app.setNotFoundHandler(notFound);

  for (const route of deps.routes) {
    // The request's span is active while the route works, so gRPC calls carry its traceparent.
    app.post(
      route.path,
      { ...(route.bodyLimitBytes && { bodyLimit: route.bodyLimitBytes }) },
      (request, reply) => withContext(request.trace.context, () => handle(route, request, reply)),
    );
  }

  async function handle(route: MerchantRoute, request: FastifyRequest, reply: FastifyReply) {
    const traceId = request.trace.traceId;
    // Plain fields rather than a child logger: a pino child with redaction costs about 8 KB per request.
    const ids = { traceId, route: route.path };
    try {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new AppError('INVALID_BODY', 'not a JSON object');
      }
      const fields = body as Record<string, unknown>;

      const common = commonParams.safeParse(fields);
      if (!common.success) throw new AppError('INVALID_PARAMETER', firstIssue(common.error));
      const { mchNo, reqTime, sign, appId, nonceStr } = common.data;

      const merchant = await deps.merchants.forAuth(mchNo);
      if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
      if (!merchant.enabled) throw new AppError('MERCHANT_DISABLED');
      if (appId !== undefined && !merchant.appIds.has(appId)) throw new AppError('APP_NOT_FOUND');

      if (!verifyObject(fields, sign, merchant.publicKeys)) throw new AppError('SIGNATURE_FAILED');
      // After the signature, so a probe that cannot sign learns nothing of the merchant's addresses.
      if (merchant.allowedIps && !addressAllowed(merchant.allowedIps, request.ip)) {
        throw new AppError('ADDRESS_NOT_ALLOWED');
      }

      const requested = parseWireTime(reqTime, deps.timeZone);
      if (!requested || Math.abs(requested.getTime() - Date.now()) > deps.reqTimeWindowS * 1000) {
        throw new AppError('REQ_TIME_OUT_OF_WINDOW');
      }
      // After the signature and the time window, so nobody can spend a merchant's quota with requests
      // it did not sign, nor with old ones replayed. A limited request keeps its nonce unspent.
      const admission = await deps.admit({
        mchNo,
        limitPerS: merchant.rateLimitPerS ?? deps.defaultRateLimitPerS,
        nonce: nonceStr,
      });
      if (admission.limited) {
        reply.header('retry-after', '1');
        throw new AppError('TOO_MANY_REQUESTS');
      }
      if (admission.nonceUsed) throw new AppError('NONCE_USED');

      const params = route.schema.safeParse(fields);
      if (!params.success) throw new AppError('INVALID_PARAMETER', firstIssue(params.error));

      const data = await route.handle(
        { merchant, common: common.data, traceparent: request.trace.traceparent },
        params.data,
      );
      return send(reply, 200, signer.success(data, traceId));
    } catch (err) {
      if (isAppError(err)) {
        if (err.codeName === 'INTERNAL_ERROR' || err.codeName === 'SERVICE_UNAVAILABLE') {
          logger.warn({ ...ids, code: err.code, detail: err.detail }, 'request failed');
        }
        return fail(reply, request, err.codeName, err.detail);
      }
      if (isDependencyUnavailable(err)) {
        logger.warn({ ...ids, err }, 'a dependency is unavailable');
        return fail(reply, request, 'SERVICE_UNAVAILABLE');
      }
      logger.error({ ...ids, err }, 'unexpected error');
      return fail(reply, request, 'INTERNAL_ERROR');
    }
  }

  app.get('/healthz', { logLevel: 'silent' }, async (_request, reply) => {
    const result = await deps.health();
    return reply
      .code(result.ok ? 200 : 503)
      .send({ status: result.ok ? 'ok' : 'unavailable', checks: result.checks });
  });
  app.get('/livez', async () => ({ status: 'ok' }));
  // The API's own description, built from these routes and their schemas (GET /openapi.json, GET /docs).
  registerOpenApiRoutes(app, deps.routes);

  return app;
}

/** Whether `ip` (the TCP peer, or X-Forwarded-For through the trusted proxies) is in the merchant's list. */
function addressAllowed(list: BlockList, ip: string): boolean {
  // An IPv4 peer on a dual-stack socket reads ::ffff:a.b.c.d: it is checked as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped?.[1] ?? ip;
  return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
