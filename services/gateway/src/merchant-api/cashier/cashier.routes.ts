import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { call, type MerchantContext, type PaymentServiceClient } from '@agentpay/proto';
import { isAppError } from '@agentpay/wire';
import type { MerchantService } from '../../merchants/index.js';
import { type Language, MESSAGES, pickLanguage } from './cashier-i18n.js';
import type { CashierLink, CashierLinks } from './cashier-link.repository.js';
import { cashierCsp, renderCashierPage, renderMessagePage } from './cashier-page.js';
import { createAddressLimiter } from './cashier-rate-limit.js';
import type { CashierTokens } from './cashier-token.js';
import { type CashierView, cashierView, phaseOf } from './cashier-view.js';

export interface CashierDeps {
  /** The orders' links (cashier-link.repository.ts). */
  links: CashierLinks;
  payments: PaymentServiceClient;
  merchants: Pick<MerchantService, 'forAuth'>;
  tokens: CashierTokens;
  /** Public origin of the merchant port, e.g. https://pay.example.com (no trailing slash). */
  publicBaseUrl: string;
  timeZone: string;
  grpcTimeoutMs: number;
  /** Page and status requests per minute per client address. */
  ratePerMinute: number;
  logger: Logger;
}

/** What create-pay needs from the cashier: record the order's link and put it into payBody. */
export interface CashierIssuer {
  issue(
    order: { orderNo: string; mchNo: string; payBody: string },
    urls: { returnUrl: string; quitUrl: string },
  ): Promise<string>;
}

const ORDER_NO = /^[A-Za-z0-9_-]{1,64}$/;
const LINK_CACHE_SIZE = 10_000;

/** payBody's JSON text with `cashierUrl` added (payments' fields unchanged, in their order). */
export function payBodyWithCashierUrl(payBody: string, cashierUrl: string): string {
  const parsed = JSON.parse(payBody) as Record<string, unknown>;
  return JSON.stringify({ ...parsed, cashierUrl });
}

export function createCashierIssuer(
  deps: Pick<CashierDeps, 'links' | 'tokens' | 'publicBaseUrl'>,
): CashierIssuer {
  return {
    async issue(order, urls) {
      await deps.links.save({
        orderNo: order.orderNo,
        mchNo: order.mchNo,
        returnUrl: urls.returnUrl,
        quitUrl: urls.quitUrl,
      });
      const url = `${deps.publicBaseUrl}/cashier/${encodeURIComponent(order.orderNo)}?t=${deps.tokens.tokenFor(order.orderNo)}`;
      return payBodyWithCashierUrl(order.payBody, url);
    },
  };
}

type Lookup =
  | { kind: 'found'; view: CashierView; token: string }
  | { kind: 'not_found' }
  | { kind: 'unavailable' };

/**
 * GET /cashier/:orderNo (the payer's page) and GET /cashier/:orderNo/status (what the page polls), on the
 * merchant port. A wrong or missing token, an unknown order and an order without a link all answer the
 * same 404, so the page tells nobody which orders exist.
 */
export function registerCashierRoutes(app: FastifyInstance, deps: CashierDeps): void {
  const limiter = createAddressLimiter(deps.ratePerMinute);
  // A link never changes once written, and an open page asks for its order every few seconds: keep the
  // most recent ones in memory. Misses are not kept, so a link written by another replica is found later.
  const links = new Map<string, CashierLink>();
  async function linkOf(orderNo: string): Promise<CashierLink | undefined> {
    const cached = links.get(orderNo);
    if (cached) return cached;
    const link = await deps.links.find(orderNo);
    if (link) {
      links.set(orderNo, link);
      if (links.size > LINK_CACHE_SIZE) links.delete(links.keys().next().value as string);
    }
    return link;
  }

  async function lookup(request: FastifyRequest): Promise<Lookup> {
    const { orderNo } = request.params as { orderNo: string };
    const token = (request.query as { t?: unknown }).t;
    if (!ORDER_NO.test(orderNo) || typeof token !== 'string' || !deps.tokens.verify(orderNo, token)) {
      return { kind: 'not_found' };
    }
    try {
      const link = await linkOf(orderNo);
      if (!link) return { kind: 'not_found' };
      const merchant: MerchantContext = { mch_no: link.mchNo };
      const [order, owner] = await Promise.all([
        call(
          deps.payments,
          deps.payments.GetPayOrder,
          { merchant, order_no: orderNo },
          { timeoutMs: deps.grpcTimeoutMs },
        ),
        deps.merchants.forAuth(link.mchNo),
      ]);
      return { kind: 'found', view: cashierView(order, owner?.name ?? '', link), token };
    } catch (err) {
      if (isAppError(err) && err.codeName === 'ORDER_NOT_FOUND') return { kind: 'not_found' };
      deps.logger.warn({ err, orderNo }, 'cashier lookup failed');
      return { kind: 'unavailable' };
    }
  }

  function languageOf(request: FastifyRequest): Language {
    const lang = (request.query as { lang?: unknown }).lang;
    return pickLanguage(typeof lang === 'string' ? lang : undefined, request.headers['accept-language']);
  }

  function secure(reply: FastifyReply): FastifyReply {
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cross-origin-resource-policy', 'same-origin');
  }

  function html(reply: FastifyReply, status: number, nonce: string, body: string) {
    return secure(reply)
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', cashierCsp(nonce))
      .header('vary', 'accept-language')
      .send(body);
  }

  function message(
    reply: FastifyReply,
    status: number,
    lang: Language,
    which: 'notFound' | 'tooMany' | 'unavailable',
  ) {
    const m = MESSAGES[lang];
    const nonce = randomBytes(16).toString('base64');
    const { title, body } = {
      notFound: { title: m.notFoundTitle, body: m.notFoundBody },
      tooMany: { title: m.tooManyTitle, body: m.tooManyBody },
      unavailable: { title: m.unavailableTitle, body: m.unavailableBody },
    }[which];
    return html(reply, status, nonce, renderMessagePage({ lang, nonce, title, body }));
  }

  app.get('/cashier/:orderNo', async (request, reply) => {
    const lang = languageOf(request);
    if (limiter.limited(request.ip)) return message(reply.header('retry-after', '60'), 429, lang, 'tooMany');
    const found = await lookup(request);
    if (found.kind === 'not_found') return message(reply, 404, lang, 'notFound');
    if (found.kind === 'unavailable')
      return message(reply.header('retry-after', '5'), 503, lang, 'unavailable');
    const { view, token } = found;
    const t = encodeURIComponent(token);
    const path = `/cashier/${encodeURIComponent(view.orderNo)}`;
    const nonce = randomBytes(16).toString('base64');
    const page = renderCashierPage({
      view,
      lang,
      nonce,
      statusUrl: `${path}/status?t=${t}`,
      otherLanguageUrl: `${path}?t=${t}&lang=${lang === 'es' ? 'en' : 'es'}`,
      timeZone: deps.timeZone,
      now: Date.now(),
    });
    return html(reply, 200, nonce, page);
  });

  app.get('/cashier/:orderNo/status', async (request, reply) => {
    secure(reply).header('content-type', 'application/json; charset=utf-8');
    if (limiter.limited(request.ip)) {
      return reply
        .code(429)
        .header('retry-after', '60')
        .send(JSON.stringify({ error: 'too_many_requests' }));
    }
    const found = await lookup(request);
    if (found.kind === 'not_found') return reply.code(404).send(JSON.stringify({ error: 'not_found' }));
    if (found.kind === 'unavailable') {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send(JSON.stringify({ error: 'unavailable' }));
    }
    const { view } = found;
    return reply.code(200).send(
      JSON.stringify({
        status: view.status,
        phase: phaseOf(view.status),
        remainingMs: view.expiresAt ? view.expiresAt.getTime() - Date.now() : null,
        returnUrl: view.returnUrl ?? null,
        quitUrl: view.quitUrl ?? null,
      }),
    );
  });
}
