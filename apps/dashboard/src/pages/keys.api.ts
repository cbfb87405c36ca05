import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's API keys and the platform's public key (services/gateway/src/merchants/account-dashboard.routes.ts).

export const merchantKey = z.object({
  id: z.string(),
  fingerprint: z.string(),
  status: z.string(),
  createdAt: z.string(),
  revokedAt: z.optional(z.string()),
});
export type MerchantKey = z.infer<typeof merchantKey>;

export const keyList = z.object({ keys: z.array(merchantKey), maxActive: z.number() });
export const keyChange = z.object({
  key: z.optional(merchantKey),
  keys: z.array(merchantKey),
  maxActive: z.number(),
});
export const platformKey = z.object({ publicKey: z.string(), fingerprint: z.string() });

/** Where the browser downloads the platform key as a file (the session cookie goes with the link). */
export const PLATFORM_KEY_FILE = '/dashboard/api/platform-key.pem';

export function keysApi(api: ApiClient) {
  return {
    keys: () => api.get('/dashboard/api/keys', keyList),
    add: (publicKey: string) => api.send('POST', '/dashboard/api/keys', { publicKey }, keyChange),
    revoke: (id: string) =>
      api.send('POST', `/dashboard/api/keys/${encodeURIComponent(id)}/revoke`, undefined, keyChange),
    platformKey: () => api.get('/dashboard/api/platform-key', platformKey),
  };
}
