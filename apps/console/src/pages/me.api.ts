import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// My account (CONTRACT section 17 "Sessions", "Tokens"): who I am, my sessions, my personal tokens.

export const me = z.object({
  id: z.string(),
  label: z.string(),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  /** Present for a person; absent for system:dev (ADMIN_TOKEN), which holds no sessions or tokens. */
  userId: z.optional(z.string()),
  roles: z.array(z.string()),
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
export const myTokens = z.object({ tokens: z.array(myToken) });
export const newToken = z.object({ id: z.string(), token: z.string(), expiresAt: z.string() });

/** Days a personal token may live at most (services/gateway people-tokens.service.ts TOKEN_MAX_DAYS). */
export const TOKEN_MAX_DAYS = 90;

const gone = z.undefined();

export function meApi(api: ApiClient) {
  return {
    me: () => api.get('/admin/me', me),
    sessions: () => api.get('/admin/me/sessions', mySessions),
    endSession: (id: string) =>
      api.send('DELETE', `/admin/me/sessions/${encodeURIComponent(id)}`, undefined, gone),
    tokens: () => api.get('/admin/me/tokens', myTokens),
    createToken: (body: { name: string; roles: string[]; expiresInDays: number }) =>
      api.send('POST', '/admin/me/tokens', body, newToken),
    revokeToken: (id: string) =>
      api.send('DELETE', `/admin/me/tokens/${encodeURIComponent(id)}`, undefined, gone),
  };
}
