import { type ApiClient, withQuery } from '@agentpay/ui';
import * as z from 'zod/mini';

// The audit log (CONTRACT section 17 "Audit log"): a page of entries newest first, the chain's proof, and the
// CSV export of the same filter.

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string(), label: z.string(), via: z.string(), roles: z.array(z.string()) }),
  mchNo: z.nullable(z.string()),
  ip: z.string(),
  action: z.string(),
  target: z.string(),
  outcome: z.string(),
  status: z.nullable(z.number()),
  reason: z.nullable(z.string()),
  /** The values before and after a change (secrets already redacted by the server), or null. */
  before: z.unknown(),
  after: z.unknown(),
  approvalId: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({ entries: z.array(auditEntry), nextCursor: z.nullable(z.string()) });
export const chainProof = z.object({
  ok: z.boolean(),
  entries: z.number(),
  firstBroken: z.optional(z.string()),
});

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  mchNo?: string;
  /** ISO instants: `from` included, `to` not. */
  from?: string;
  to?: string;
}

export function auditApi(api: ApiClient) {
  return {
    entries: (filter: AuditFilter, cursor?: string) =>
      api.get('/admin/audit', auditPage, { ...filter, cursor, limit: 50 }),
    verify: () => api.get('/admin/audit/verify', chainProof),
    /** Where the browser downloads the CSV of `filter` (a GET with the session cookie). */
    exportUrl: (filter: AuditFilter) => withQuery('/admin/audit/export', { ...filter }),
  };
}
