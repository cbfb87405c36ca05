import { type ApiClient, type Query, resentDelivery } from '@agentpay/ui';
import * as z from 'zod/mini';

// The admin API's figures and callbacks as the console calls them (docs/console.md "Home" and "Callbacks"):
// a day's figures per route, the callback backlog, the failing endpoints, and the deliveries of an order with
// their attempts. Amounts are integer centavos.

const enc = encodeURIComponent;

/** The permission table's names of what the pages read and offer (useMay). */
export const MAY_FIGURES = 'GET /admin/figures';
export const MAY_BACKLOG = 'GET /admin/callbacks/backlog';
export const MAY_FAILING = 'GET /admin/callbacks/failing-endpoints';
export const MAY_DELIVERIES = 'GET /admin/deliveries';
export const MAY_RESEND = 'POST /admin/deliveries/:id/resend';

const flow = z.object({
  count: z.int(),
  amount: z.int(),
  succeeded: z.int(),
  succeededAmount: z.int(),
  failed: z.int(),
  pending: z.int(),
  successRate: z.nullable(z.number()),
});
export type Flow = z.infer<typeof flow>;

export const figures = z.object({
  day: z.string(),
  routes: z.array(z.object({ routeId: z.string(), name: z.string(), payIns: flow, payouts: flow })),
});
export type Figures = z.infer<typeof figures>;

export const backlog = z.looseObject({
  pending: z.int(),
  due: z.int(),
  inFlight: z.int(),
  failing: z.int(),
  gaveUp: z.int(),
  failingEndpoints: z.int(),
  oldestDueAt: z.nullable(z.string()),
  oldestPendingAt: z.nullable(z.string()),
  windowHours: z.int(),
});

export const failingEndpoints = z.object({
  windowHours: z.int(),
  endpoints: z.array(
    z.looseObject({
      mchNo: z.string(),
      endpoint: z.string(),
      failing: z.int(),
      gaveUp: z.int(),
      oldestPendingAt: z.nullable(z.string()),
      lastFailedAt: z.string(),
      lastError: z.nullable(z.string()),
      lastHttpStatus: z.nullable(z.int()),
      latest: z.looseObject({ id: z.string(), kind: z.string(), orderNo: z.string() }),
    }),
  ),
});
export type FailingEndpoint = z.infer<typeof failingEndpoints>['endpoints'][number];

const attempt = z.looseObject({
  number: z.int(),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  outcome: z.string(),
  httpStatus: z.nullable(z.int()),
  latencyMs: z.nullable(z.int()),
  response: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type Attempt = z.infer<typeof attempt>;

export const delivery = z.looseObject({
  id: z.string(),
  kind: z.string(),
  mchNo: z.string(),
  orderNo: z.string(),
  toStatus: z.string(),
  notifyUrl: z.nullable(z.string()),
  status: z.string(),
  inFlight: z.boolean(),
  attemptCount: z.int(),
  nextAttemptAt: z.nullable(z.string()),
  lastHttpStatus: z.nullable(z.int()),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  body: z.nullable(z.string()),
  attempts: z.array(attempt),
});
export type Delivery = z.infer<typeof delivery>;

export function callbacksApi(client: ApiClient) {
  return {
    figures: (day?: string) => client.get('/admin/figures', figures, { day }),
    backlog: () => client.get('/admin/callbacks/backlog', backlog),
    failingEndpoints: (query: Query) =>
      client.get('/admin/callbacks/failing-endpoints', failingEndpoints, query),
    deliveries: (orderNo: string) =>
      client.get('/admin/deliveries', z.object({ deliveries: z.array(delivery) }), { orderNo }),
    delivery: (id: string) => client.get(`/admin/deliveries/${enc(id)}`, delivery),
    resend: (id: string) =>
      client.send('POST', `/admin/deliveries/${enc(id)}/resend`, undefined, resentDelivery),
  };
}
export type CallbacksApi = ReturnType<typeof callbacksApi>;
