import type { ApiClient, Query } from '@agentpay/ui';
import * as z from 'zod/mini';

// Four eyes as the console reads it (services/gateway/README.md "Four eyes"): what waits for me (others'
// pending requests), what I asked for, one request, and the decision with its reason.

export const approval = z.object({
  id: z.string(),
  state: z.string(),
  action: z.string(),
  target: z.string(),
  summary: z.string(),
  requestedBy: z.object({ id: z.string(), label: z.string() }),
  requestedAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.optional(z.object({ id: z.string(), label: z.string() })),
  decidedAt: z.optional(z.string()),
  reason: z.optional(z.string()),
  executedAt: z.optional(z.string()),
  result: z.optional(z.looseObject({ status: z.number(), body: z.optional(z.unknown()) })),
});
export type Approval = z.infer<typeof approval>;
export const approvalPage = z.object({ items: z.array(approval), next: z.optional(z.string()) });
const decided = z.object({ approval });
/** Who is signed in, as approvals name people (`user:<uuid>`, or `system:dev`). */
const me = z.looseObject({ id: z.string() });

export function approvalsApi(api: ApiClient) {
  return {
    /** `waiting`: others' pending requests; `requested`: mine, in every state. Newest first. */
    list: (mine: 'waiting' | 'requested', query: Query) =>
      api.get('/admin/approvals', approvalPage, { mine, limit: 20, ...query }),
    me: () => api.get('/admin/me', me),
    one: (id: string) => api.get(`/admin/approvals/${encodeURIComponent(id)}`, approval),
    approve: (id: string, reason: string) =>
      api.send('POST', `/admin/approvals/${encodeURIComponent(id)}/approve`, { reason }, decided),
    reject: (id: string, reason: string) =>
      api.send('POST', `/admin/approvals/${encodeURIComponent(id)}/reject`, { reason }, decided),
  };
}
export type ApprovalsApi = ReturnType<typeof approvalsApi>;
