import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import { z } from 'zod';
import { dashboardOrderQuery, dashboardTransferQuery } from './order-query.js';
import { type OrderReadDeps, registerOrderReads } from './order-reads.routes.js';
import { badQuery, notFound } from './order-replies.js';

// The merchant's own orders and transfers in the dashboard (CONTRACT.md section 18; docs/console.md
// "Dashboard API"): the same answers as the admin API's, always scoped to the signed-in person's merchant
// (never a merchant number from the client), and without anything naming the channel or route. Another
// merchant's order is 404, as if it did not exist. Who may call is in people/orders-dashboard.permissions.ts.

export interface OrdersDashboardDeps extends OrderReadDeps {
  /** The notifier's HTTP port and admin token, for resending one of the merchant's callbacks. */
  notifierUrl: string;
  notifierToken: string;
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
    const found = await notifier(deps, reply, 'GET', path);
    if (!found) return reply;
    if (found.status === 404 || (found.body as { mchNo?: string }).mchNo !== merchantOf(request)) {
      return notFound(reply);
    }
    const resent = await notifier(deps, reply, 'POST', `${path}/resend`);
    if (!resent) return reply;
    return reply.code(resent.status).send(merchantDelivery(resent.body));
  });
}

/** A delivery as its merchant sees it: without the notifier's replica names. */
function merchantDelivery(body: unknown): unknown {
  const delivery = body as { attempts?: Array<Record<string, unknown>> };
  if (!Array.isArray(delivery.attempts)) return body;
  return { ...delivery, attempts: delivery.attempts.map(({ worker: _worker, ...attempt }) => attempt) };
}

/** Calls the notifier's admin API; undefined after answering 503/502 itself when it cannot. */
async function notifier(
  deps: OrdersDashboardDeps,
  reply: FastifyReply,
  method: 'GET' | 'POST',
  path: string,
): Promise<{ status: number; body: unknown } | undefined> {
  let response: Response;
  try {
    response = await fetch(`${deps.notifierUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${deps.notifierToken}` },
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
  } catch {
    reply.code(503).send({ error: 'unavailable', message: 'the notifier did not answer; try again' });
    return undefined;
  }
  if (response.status === 401) {
    reply.code(502).send({ error: 'bad_gateway', message: 'the notifier refused the gateway' });
    return undefined;
  }
  const text = await response.text();
  let body: unknown = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { error: 'bad_gateway', message: 'the notifier answered something else than JSON' };
  }
  return { status: response.status, body };
}
