import { randomUUID } from 'node:crypto';
import { payoutLimitsToProto, refundView } from '@agentpay/api';
import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { isAppError, parseAmount } from '@agentpay/wire';
import { z } from 'zod';
import type { AuthMerchant } from '../merchants/index.js';
import { type NotifierClient, notifierFailureReply } from '../shared/notifier-client.js';
import { dashboardOrderQuery, dashboardTransferQuery } from './order-query.js';
import { type OrderReadDeps, registerOrderReads } from './order-reads.routes.js';
import { requestRefund } from './order-refund.js';
import { badQuery, notFound, serviceRefusal } from './order-replies.js';

// The merchant's own orders and transfers in the dashboard (CONTRACT.md section 18; docs/console.md
// "Dashboard API"): the same answers as the admin API's, always scoped to the signed-in person's merchant
// (never a merchant number from the client), and without anything naming the channel or route. Another
// merchant's order is 404, as if it did not exist. Who may call is in orders-dashboard.permissions.ts.

export interface OrdersDashboardDeps extends OrderReadDeps {
  /** The notifier's admin API, for resending one of the merchant's callbacks. */
  notifier: NotifierClient;
  /** The merchant as the signed API knows it (rate, limits), for a refund asked from the dashboard. */
  merchants: { forAuth(mchNo: string): Promise<AuthMerchant | undefined> };
  timeZone: string;
}

/** A refund asked from an order's page: its key (the page makes one per form, so a double click is one refund). */
const refundBody = z.object({
  bizRefundNo: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1..100 of A-Z a-z 0-9 _ -')
    .optional(),
  /** Pesos; absent: all the order has left. */
  amount: z.number().optional(),
  reason: z.string().max(50, 'at most 50 characters').optional(),
});

const orderNoParam = z.string().regex(/^[A-Za-z0-9]{1,32}$/, 'must be an order number');

/** Refusals of a refund a person can act on, as the dashboard answers them (HTTP 409 with the reason). */
const REFUND_REFUSALS = new Set([
  'REFUND_NOT_POSSIBLE',
  'DUPLICATE_REFUND',
  'INSUFFICIENT_BALANCE',
  'PAYOUT_LIMIT_EXCEEDED',
]);

/** The session's merchant; the authorisation hook lets only merchant people through on this port. */
function merchantOf(request: FastifyRequest): string {
  const scope = request.actor?.scope;
  if (scope?.kind !== 'merchant') throw new Error('a dashboard route reached without a merchant person');
  return scope.mchNo;
}

const deliveryId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a delivery id');

export function registerOrdersDashboard(dash: FastifyInstance, deps: OrdersDashboardDeps): void {
  registerOrderReads(dash, deps, {
    prefix: '/dashboard/api',
    orderQuery: dashboardOrderQuery,
    transferQuery: dashboardTransferQuery,
    merchant: merchantOf,
  });

  // A refund of one of the merchant's paid orders to its payer (CONTRACT section 21), as the signed API's
  // /gateway/refund does it; who may ask is in orders-dashboard.permissions.ts (finance, admin, owner).
  dash.post<{ Params: { orderNo: string } }>(
    '/dashboard/api/orders/:orderNo/refunds',
    async (request, reply) => {
      const orderNo = orderNoParam.safeParse(request.params.orderNo);
      if (!orderNo.success) return badQuery(reply, orderNo.error);
      const body = refundBody.safeParse(request.body ?? {});
      if (!body.success) return badQuery(reply, body.error);
      let amount = 0;
      if (body.data.amount !== undefined) {
        const parsed = parseAmount(body.data.amount);
        if (!parsed.ok)
          return reply.code(400).send({ error: 'bad_request', message: `amount: ${parsed.reason}` });
        amount = parsed.centavos;
      }
      const mchNo = merchantOf(request);
      const merchant = await deps.merchants.forAuth(mchNo);
      if (!merchant) return notFound(reply);
      try {
        const refund = await requestRefund(deps, dashboardMerchantContext(merchant), {
          orderNo: orderNo.data,
          bizOrderNo: '',
          bizRefundNo: body.data.bizRefundNo ?? `DASH-${randomUUID()}`,
          amount,
          reason: body.data.reason ?? '',
          notifyUrl: '',
          clientIp: request.ip,
        });
        return reply.code(201).send(refundView(refund, deps.timeZone));
      } catch (err) {
        if (isAppError(err) && REFUND_REFUSALS.has(err.codeName))
          return reply.code(409).send({ error: 'conflict', code: err.code, message: err.message });
        return serviceRefusal(reply, err);
      }
    },
  );

  // One of the merchant's own callbacks, sent again; another merchant's delivery is 404.
  dash.post<{ Params: { id: string } }>('/dashboard/api/deliveries/:id/resend', async (request, reply) => {
    const id = deliveryId.safeParse(request.params.id);
    if (!id.success) return badQuery(reply, id.error);
    const path = `/admin/deliveries/${encodeURIComponent(id.data)}`;
    try {
      const found = await deps.notifier.json<{ mchNo?: string }>('GET', path);
      if (found.status === 404 || found.body.mchNo !== merchantOf(request)) return notFound(reply);
      const resent = await deps.notifier.json('POST', `${path}/resend`);
      return reply.code(resent.status).send(merchantDelivery(resent.body));
    } catch (err) {
      return notifierFailureReply(reply, err);
    }
  });
}

/** A delivery as its merchant sees it: without the notifier's replica names. */
function merchantDelivery(body: unknown): unknown {
  const delivery = body as { attempts?: Array<Record<string, unknown>> };
  if (!Array.isArray(delivery.attempts)) return body;
  return { ...delivery, attempts: delivery.attempts.map(({ worker: _worker, ...attempt }) => attempt) };
}

/** The merchant context of a refund asked from the dashboard: the merchant's rate and payout limits. */
function dashboardMerchantContext(merchant: AuthMerchant) {
  return {
    mch_no: merchant.mchNo,
    app_id: '',
    fee_percent_bps: merchant.feePercentBps,
    fee_fixed_centavos: merchant.feeFixedCentavos,
    settle_type: merchant.settleType,
    traceparent: '',
    merchant_name: merchant.name,
    payout_limits: payoutLimitsToProto(merchant.limits.payout),
    registered_payees_only: merchant.registeredPayeesOnly,
  };
}
