import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The operators' people (CONTRACT section 17 "Accounts"): `GET /admin/users` paged by email, the invitation,
// and one `PATCH /admin/users/:id` for roles, disabling and unlocking.

/** The operator roles, as services/gateway/src/identity/actor.ts names them, in the order the pages show them. */
export const OPERATOR_ROLES = [
  'owner',
  'admin',
  'approver',
  'reconciliation',
  'compliance',
  'support',
  'auditor',
] as const;

/** A merchant's own roles (services/gateway/src/identity/actor.ts MERCHANT_ROLES). */
export const MERCHANT_ROLES = ['owner', 'admin', 'finance', 'viewer'] as const;

export const person = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  status: z.string(),
  totpEnrolled: z.boolean(),
  locked: z.boolean(),
  lockedUntil: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Person = z.infer<typeof person>;

export const personPage = z.object({ users: z.array(person), next: z.optional(z.string()) });
export const invited = z.object({ id: z.string(), inviteUrl: z.string(), inviteToken: z.string() });

export const merchantPeople = z.object({ users: z.array(person) });

export type PersonChange = { roles: string[] } | { status: 'enabled' | 'disabled' } | { unlock: true };

export function peopleApi(api: ApiClient) {
  return {
    people: (query: { search?: string; cursor?: string }) =>
      api.get('/admin/users', personPage, { ...query, limit: 50 }),
    invite: (body: { email: string; name: string; roles: string[] }) =>
      api.send('POST', '/admin/users', body, invited),
    change: (id: string, change: PersonChange) =>
      api.send('PATCH', `/admin/users/${encodeURIComponent(id)}`, change, person),
    /** A merchant's people: a handful, listed whole. */
    merchantPeople: (mchNo: string) =>
      api.get(`/admin/merchants/${encodeURIComponent(mchNo)}/users`, merchantPeople),
    inviteToMerchant: (mchNo: string, body: { email: string; name: string; roles: string[] }) =>
      api.send('POST', `/admin/merchants/${encodeURIComponent(mchNo)}/users`, body, invited),
  };
}
