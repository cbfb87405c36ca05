import { type ApiClient, createApiClient, type Query } from '@agentpay/ui';
import * as z from 'zod/mini';

export { DISCREPANCY_KINDS, DISCREPANCY_STATES } from '@agentpay/api/reconciliation';

// The admin API as the console reads it (CONTRACT section 11 and the admin API's own docs): each answer's
// schema, and one function per call. Pages call these; nothing else builds an /admin URL.

export const merchant = z.object({
  mchNo: z.string(),
  name: z.string(),
  status: z.string(),
  appIds: z.array(z.string()),
  feeRate: z.object({ percentBps: z.int(), fixedCentavos: z.int() }),
  settleType: z.string(),
  rateLimitPerS: z.nullable(z.int()),
  keys: z.array(
    z.object({
      id: z.string(),
      fingerprint: z.string(),
      status: z.string(),
      createdAt: z.string(),
      revokedAt: z.optional(z.string()),
    }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Merchant = z.infer<typeof merchant>;

export const merchantPage = z.object({
  items: z.array(
    z.object({
      mchNo: z.string(),
      name: z.string(),
      status: z.string(),
      settleType: z.string(),
      createdAt: z.string(),
    }),
  ),
  next: z.optional(z.string()),
});

export const route = z.object({
  id: z.string(),
  name: z.string(),
  adapter: z.string(),
  enabled: z.boolean(),
  methods: z.array(z.string()),
  payeeTypes: z.array(z.string()),
  priority: z.number(),
  weight: z.number(),
  merchantScope: z.string(),
  merchants: z.array(z.string()),
  health: z.nullish(
    z.object({
      state: z.string(),
      recentFailures: z.number(),
      failuresTotal: z.number(),
      successesTotal: z.number(),
      skippedTotal: z.number(),
      openedAt: z.optional(z.string()),
      retryAt: z.optional(z.string()),
    }),
  ),
});
export type Route = z.infer<typeof route>;
export const routeList = z.object({ routes: z.array(route) });

export const discrepancy = z.object({
  id: z.string(),
  kind: z.string(),
  routeId: z.string(),
  day: z.string(),
  amount: z.union([z.number(), z.string()]),
  platform: z.record(z.string(), z.unknown()),
  channel: z.record(z.string(), z.unknown()),
  state: z.string(),
  createdAt: z.optional(z.string()),
});
export type Discrepancy = z.infer<typeof discrepancy>;
export const discrepancyPage = z.object({ items: z.array(discrepancy), next: z.optional(z.string()) });

export const approvalList = z.looseObject({ items: z.array(z.looseObject({ id: z.string() })) });

export function consoleApi(onUnauthorized: () => void) {
  const api: ApiClient = createApiClient({ sessionBase: '/console/api', onUnauthorized });
  return {
    client: api,
    merchants: (query: { search?: string; cursor?: string }) =>
      api.get('/admin/merchants', merchantPage, query),
    merchant: (mchNo: string) => api.get(`/admin/merchants/${encodeURIComponent(mchNo)}`, merchant),
    createMerchant: (body: {
      mchNo: string;
      name: string;
      publicKey: string;
      feeRate: { percentBps: number; fixedCentavos: number };
      settleType: string;
    }) =>
      api.send('POST', '/admin/merchants', body, merchant).then((answer) => {
        if ('approval' in answer) throw new Error('creating a merchant never waits for approval');
        return answer.done;
      }),
    updateMerchant: (mchNo: string, body: Record<string, unknown>) =>
      api.send('PATCH', `/admin/merchants/${encodeURIComponent(mchNo)}`, body, merchant),
    setMerchantStatus: (mchNo: string, status: 'enabled' | 'disabled') =>
      api.send('PATCH', `/admin/merchants/${encodeURIComponent(mchNo)}`, { status }, merchant),
    routes: () => api.get('/admin/routes', routeList),
    setRouteEnabled: (id: string, enabled: boolean) =>
      api.send(
        'POST',
        `/admin/routes/${encodeURIComponent(id)}/${enabled ? 'enable' : 'disable'}`,
        undefined,
        route,
      ),
    bindRouteMerchant: (id: string, mchNo: string) =>
      api.send(
        'POST',
        `/admin/routes/${encodeURIComponent(id)}/merchants/${encodeURIComponent(mchNo)}`,
        undefined,
        route,
      ),
    setRouteWeight: (id: string, weight: number) =>
      api.send('PATCH', `/admin/routes/${encodeURIComponent(id)}`, { weight }, route),
    discrepancies: (query: Query) => api.get('/admin/discrepancies', discrepancyPage, query),
    pendingApprovals: () => api.get('/admin/approvals', approvalList, { state: 'pending' }),
  };
}
export type ConsoleApi = ReturnType<typeof consoleApi>;
