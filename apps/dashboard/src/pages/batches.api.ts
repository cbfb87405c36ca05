import type { ApiClient } from '@agentpay/ui';
import * as z from 'zod/mini';

// Batch payouts (CONTRACT section 21): check a CSV row by row, request it, and a second person approves it
// with a current authenticator code; only then is it sent. Always of the signed-in person's merchant.

/** The permission table's names of these routes (useMay). */
export const MAY = {
  check: 'POST /dashboard/api/batches/check',
  create: 'POST /dashboard/api/batches',
  approve: 'POST /dashboard/api/batches/:id/approve',
  reject: 'POST /dashboard/api/batches/:id/reject',
} as const;

const rowCheck = z.object({
  line: z.number(),
  cells: z.object({
    bizTransferNo: z.string(),
    amount: z.string(),
    payeeAccount: z.string(),
    payeeName: z.string(),
  }),
  errors: z.array(z.object({ column: z.string(), problem: z.string() })),
  item: z.optional(
    z.object({
      bizTransferNo: z.string(),
      amount: z.number(),
      payeeAccount: z.string(),
      payeeName: z.string(),
      payeeCode: z.string(),
    }),
  ),
});
export const fileCheck = z.object({
  ok: z.boolean(),
  problems: z.array(z.object({ problem: z.string(), column: z.optional(z.string()) })),
  count: z.number(),
  amount: z.number(),
  rows: z.array(rowCheck),
});
export type FileCheck = z.infer<typeof fileCheck>;

export const batchRequest = z.object({
  id: z.string(),
  bizBatchNo: z.string(),
  count: z.number(),
  amount: z.number(),
  /** pending | approved | rejected | cancelled */
  state: z.string(),
  requestedBy: z.string(),
  requestedByMe: z.boolean(),
  requestedAt: z.string(),
  decidedBy: z.optional(z.string()),
  batchNo: z.optional(z.string()),
  batch: z.optional(
    z.object({
      status: z.string(),
      successCount: z.optional(z.number()),
      failCount: z.optional(z.number()),
      progressCount: z.optional(z.number()),
    }),
  ),
});
export type BatchRequest = z.infer<typeof batchRequest>;

const list = z.object({ items: z.array(batchRequest) });
const one = z.object({ request: z.optional(batchRequest) });

export function batchesApi(client: ApiClient) {
  return {
    list: () => client.get('/dashboard/api/batches', list),
    check: (csv: string) => client.send('POST', '/dashboard/api/batches/check', { csv }, fileCheck),
    request: (bizBatchNo: string, csv: string) =>
      client.send('POST', '/dashboard/api/batches', { bizBatchNo, csv }, one),
    approve: (id: string, code: string) =>
      client.send('POST', `/dashboard/api/batches/${encodeURIComponent(id)}/approve`, { code }, one),
    reject: (id: string) =>
      client.send('POST', `/dashboard/api/batches/${encodeURIComponent(id)}/reject`, {}, one),
  };
}
