import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// My account on the dashboard (CONTRACT section 17 "Sessions", "Tokens"): my sessions and personal tokens.

export const me = z.object({
  id: z.string(),
  label: z.string(),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  roles: z.array(z.string()),
  mchNo: z.optional(z.string()),
});

export const mySession = z.object({
  id: z.string(),
  current: z.boolean(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export const mySessions = z.object({ sessions: z.array(mySession) });

export const myToken = z.object({
  id: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
  active: z.boolean(),
});
export type MyToken = z.infer<typeof myToken>;
export const myTokens = z.object({ tokens: z.array(myToken) });
export const newToken = z.object({ id: z.string(), token: z.string(), expiresAt: z.string() });

/** Days a personal token may live at most (services/gateway people-tokens.service.ts TOKEN_MAX_DAYS). */
export const TOKEN_MAX_DAYS = 90;

const gone = z.undefined();

export function meApi(api: ApiClient) {
  return {
    me: () => api.get('/dashboard/api/me', me),
    sessions: () => api.get('/dashboard/api/me/sessions', mySessions),
    endSession: (id: string) =>
      api.send('DELETE', `/dashboard/api/me/sessions/${encodeURIComponent(id)}`, undefined, gone),
    tokens: () => api.get('/dashboard/api/me/tokens', myTokens),
    createToken: (body: { name: string; roles: string[]; expiresInDays: number }) =>
      api.send('POST', '/dashboard/api/me/tokens', body, newToken),
    revokeToken: (id: string) =>
      api.send('DELETE', `/dashboard/api/me/tokens/${encodeURIComponent(id)}`, undefined, gone),
  };
}
