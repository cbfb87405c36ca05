import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's own people (CONTRACT section 17 "Merchant people"): list, invite, change roles or disable.

/** The merchant roles, as services/gateway/src/identity/actor.ts names them, in the order the pages show them. */
export const MERCHANT_ROLES = ['owner', 'admin', 'finance', 'viewer'] as const;

export const teamMember = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  status: z.string(),
  totpEnrolled: z.boolean(),
  locked: z.boolean(),
  createdAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const team = z.object({ users: z.array(teamMember), next: z.optional(z.string()) });
export const invited = z.object({ id: z.string(), inviteUrl: z.string(), inviteToken: z.string() });
export const me = z.object({
  id: z.string(),
  userId: z.optional(z.string()),
  roles: z.array(z.string()),
  may: z.array(z.string()),
});

export type MemberChange = { roles: string[] } | { status: 'enabled' | 'disabled' } | { unlock: true };

export function teamApi(api: ApiClient) {
  return {
    me: () => api.get('/dashboard/api/me', me),
    team: (cursor?: string) => api.get('/dashboard/api/users', team, { cursor }),
    invite: (body: { email: string; name: string; roles: string[] }) =>
      api.send('POST', '/dashboard/api/users', body, invited),
    change: (id: string, change: MemberChange) =>
      api.send('PATCH', `/dashboard/api/users/${encodeURIComponent(id)}`, change, teamMember),
  };
}
