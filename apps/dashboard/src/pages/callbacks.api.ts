import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// The merchant's callbacks whose last attempt failed, newest first, paged by the server.

export const failingCallback = z.object({
  id: z.string(),
  kind: z.string(),
  orderNo: z.string(),
  version: z.union([z.number(), z.string()]),
  toStatus: z.string(),
  notifyUrl: z.nullable(z.string()),
  status: z.string(),
  attemptCount: z.number(),
  nextAttemptAt: z.nullable(z.string()),
  lastHttpStatus: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FailingCallback = z.infer<typeof failingCallback>;
export const failingPage = z.object({ items: z.array(failingCallback), next: z.optional(z.string()) });

export function callbacksApi(api: ApiClient) {
  return {
    failures: (cursor?: string) => api.get('/dashboard/api/callbacks/failures', failingPage, { cursor }),
  };
}
