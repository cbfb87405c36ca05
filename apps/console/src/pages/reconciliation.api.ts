import type { ApiClient, Query } from '@agentpay/ui';
import * as z from 'zod/mini';

export {
  ACTIONS_BY_KIND,
  actionsFor,
  DISCREPANCY_KINDS,
  DISCREPANCY_STATES,
  type ResolutionAction,
} from '@agentpay/api/reconciliation';

// Reconciliation as the console reads it (docs/reconciliation.md "Admin API"): the runs per day and route,
// the discrepancies they found, one discrepancy, its resolution (through four eyes for credit and return),
// and what already waits on it. Amounts arrive in pesos and are only formatted.

export const reconRun = z.object({
  id: z.string(),
  day: z.string(),
  routeId: z.string(),
  state: z.string(),
  startedAt: z.optional(z.string()),
  finishedAt: z.optional(z.string()),
  lines: z.number(),
  matched: z.number(),
  pending: z.number(),
  discrepancies: z.number(),
  returned: z.number(),
  error: z.optional(z.string()),
});
export type ReconRun = z.infer<typeof reconRun>;
export const reconRunPage = z.object({ items: z.array(reconRun), next: z.optional(z.string()) });

/** A run's answer: each route's counts, or, for a route whose statement could not be read, why it failed. */
export const runResult = z.object({
  day: z.string(),
  routes: z.array(
    z.union([
      z.object({
        routeId: z.string(),
        state: z.literal('failed'),
        error: z.string(),
      }),
      z.object({
        routeId: z.string(),
        state: z.optional(z.literal('succeeded')),
        lines: z.number(),
        matched: z.number(),
        pending: z.number(),
        discrepancies: z.number(),
      }),
    ]),
  ),
});
export type RunResult = z.infer<typeof runResult>;

export const discrepancyDetail = z.object({
  id: z.string(),
  kind: z.string(),
  routeId: z.string(),
  day: z.string(),
  amount: z.union([z.number(), z.string()]),
  platform: z.record(z.string(), z.unknown()),
  channel: z.record(z.string(), z.unknown()),
  state: z.string(),
  createdAt: z.optional(z.string()),
  resolution: z.optional(
    z.object({
      action: z.string(),
      operator: z.string(),
      reason: z.string(),
      resolvedAt: z.optional(z.string()),
      reference: z.optional(z.string()),
      status: z.optional(z.string()),
      approvalId: z.optional(z.string()),
    }),
  ),
});
export type DiscrepancyDetail = z.infer<typeof discrepancyDetail>;
export const discrepancyList = z.object({ items: z.array(discrepancyDetail), next: z.optional(z.string()) });

const pendingList = z.object({
  items: z.array(z.looseObject({ id: z.string(), state: z.string(), requestedBy: z.looseObject({}) })),
});

export function reconciliationApi(api: ApiClient) {
  return {
    runs: (query: Query) => api.get('/admin/reconciliations', reconRunPage, query),
    startRun: (body: { day: string; routeId?: string }) =>
      api.send('POST', '/admin/reconciliations', body, runResult),
    discrepancies: (query: Query) => api.get('/admin/discrepancies', discrepancyList, query),
    discrepancy: (id: string) => api.get(`/admin/discrepancies/${encodeURIComponent(id)}`, discrepancyDetail),
    resolve: (id: string, body: { action: string; reason: string }) =>
      api.send('POST', `/admin/discrepancies/${encodeURIComponent(id)}/resolve`, body, discrepancyDetail),
    /** The requests that wait for a second person on this discrepancy (its credit or return). */
    waitingOn: (id: string) =>
      api.get('/admin/approvals', pendingList, { state: 'pending', target: `discrepancy:${id}`, limit: 5 }),
  };
}
