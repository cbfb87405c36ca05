import { type ApiClient, ApiError } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's controls on where its money goes (CONTRACT section 19): "registered payees only" and the
// addresses its signed requests may come from. Turning registered payees only on, and the addresses, take
// effect at once; turning it off is a request that a second owner or admin approves.

/** The permission table's names of these routes (useMay). */
export const MAY = {
  change: 'PATCH /dashboard/api/settings',
  approve: 'POST /dashboard/api/settings/requests/:id/approve',
  cancel: 'POST /dashboard/api/settings/requests/:id/cancel',
} as const;

export const settingsRequest = z.object({
  id: z.string(),
  change: z.object({ registeredPayeesOnly: z.optional(z.boolean()) }),
  requestedBy: z.string(),
  requestedByMe: z.boolean(),
  createdAt: z.string(),
});
export type SettingsRequest = z.infer<typeof settingsRequest>;

export const settings = z.object({
  registeredPayeesOnly: z.boolean(),
  allowedIps: z.array(z.string()),
  requests: z.array(settingsRequest),
});
export type Settings = z.infer<typeof settings>;

const changed = z.object({ settings });

export type SettingsChange = { registeredPayeesOnly: boolean } | { allowedIps: string[] };

export function settingsApi(client: ApiClient) {
  const request = (id: string, action: 'approve' | 'cancel') =>
    client.send('POST', `/dashboard/api/settings/requests/${encodeURIComponent(id)}/${action}`, {}, changed);
  return {
    settings: () => client.get('/dashboard/api/settings', settings),
    /** `waits`: the change is a request a second owner or admin approves (202), not done yet. */
    async change(body: SettingsChange): Promise<'done' | 'waits'> {
      try {
        const answer = await client.send('PATCH', '/dashboard/api/settings', body, changed);
        return 'done' in answer ? 'done' : 'waits';
      } catch (error) {
        // A 202 is accepted for approval whatever its body says; the page reads the request back.
        if (error instanceof ApiError && error.status === 202) return 'waits';
        throw error;
      }
    },
    approve: (id: string) => request(id, 'approve'),
    cancel: (id: string) => request(id, 'cancel'),
  };
}
