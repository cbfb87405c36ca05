import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's security history: its own audit entries (`GET /dashboard/api/audit`), newest first.

export const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string(), label: z.string(), via: z.string() }),
  ip: z.string(),
  action: z.string(),
  target: z.string(),
  outcome: z.string(),
  reason: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = z.object({ entries: z.array(auditEntry), nextCursor: z.nullable(z.string()) });

/** What the person may call (`GET /dashboard/api/me`), read before asking for the history. */
export const mayList = z.object({ may: z.array(z.string()) });

export function securityApi(api: ApiClient) {
  return {
    may: async () => (await api.get('/dashboard/api/me', mayList)).may,
    history: (cursor?: string) => api.get('/dashboard/api/audit', auditPage, { cursor, limit: 50 }),
  };
}
