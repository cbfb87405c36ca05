import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's registered payees (CONTRACT section 19 "Registered payees"): list, register, approve (a
// second owner or admin, never the person who registered it), remove. Always of the signed-in person's
// merchant.

/** The permission table's names of these routes (useMay). */
export const MAY = {
  register: 'POST /dashboard/api/payees',
  approve: 'POST /dashboard/api/payees/:payeeId/approve',
  remove: 'POST /dashboard/api/payees/:payeeId/remove',
} as const;

/** The payee types a merchant registers, as the merchant API names them, in the order the form offers them. */
export const PAYEE_TYPES = ['spei_transfer', 'bank_card', 'user_id', 'login_name', 'open_id'] as const;

export const payee = z.object({
  payeeId: z.string(),
  payeeType: z.string(),
  payeeAccount: z.string(),
  payeeName: z.string(),
  payeeCode: z.optional(z.string()),
  /** cooling | usable | removed */
  status: z.string(),
  usableAt: z.string(),
  /** `api` (a signed request) or the person who registered it. */
  registeredBy: z.string(),
  approvedBy: z.optional(z.nullable(z.string())),
  createdAt: z.string(),
  removedAt: z.optional(z.nullable(z.string())),
  /** Whether the signed-in person registered it (they may not approve it). */
  registeredByMe: z.boolean(),
});
export type Payee = z.infer<typeof payee>;

export const payeesPage = z.object({ items: z.array(payee), next: z.optional(z.string()) });
const registered = z.object({ payee, created: z.boolean() });
const changed = z.object({ payee });

export interface NewPayee {
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode?: string;
}

export function payeesApi(client: ApiClient) {
  const one = (id: string, action: 'approve' | 'remove') =>
    client.send('POST', `/dashboard/api/payees/${encodeURIComponent(id)}/${action}`, {}, changed);
  return {
    list: (cursor?: string) => client.get('/dashboard/api/payees', payeesPage, { cursor, limit: 50 }),
    register: (body: NewPayee) => client.send('POST', '/dashboard/api/payees', body, registered),
    approve: (id: string) => one(id, 'approve'),
    remove: (id: string) => one(id, 'remove'),
  };
}
