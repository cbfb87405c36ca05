import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { z } from 'zod';
import { type NotifierClient, notifierFailureReply } from '../shared/notifier-client.js';
import { dashboardOrderQuery, dashboardTransferQuery } from './order-query.js';
import { type OrderReadDeps, registerOrderReads } from './order-reads.routes.js';
import { badQuery, notFound } from './order-replies.js';

// The merchant's own orders and transfers in the dashboard (CONTRACT.md section 18; docs/console.md
// "Dashboard API"): the same answers as the admin API's, always scoped to the signed-in person's merchant
// (never a merchant number from the client), and without anything naming the channel or route. Another
// merchant's order is 404, as if it did not exist. Who may call is in people/orders-dashboard.permissions.ts.

export interface OrdersDashboardDeps extends OrderReadDeps {
  /** The notifier's admin API, for resending one of the merchant's callbacks. */
  notifier: NotifierClient;
}

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
