import { type ApiClient, balanceParts, type Query, statementPage, withQuery } from '@agentpay/ui';
import * as z from 'zod/mini';

// The console's ledger calls (docs/console.md "Ledger"): a merchant's balance and statement, the books'
// check, each merchant's last settlement, the settlement runs, and a settlement run.

const enc = encodeURIComponent;

/** The permission table's names of the ledger's routes (useMay). */
export const MAY = {
  merchants: 'GET /admin/merchants',
  balance: 'GET /admin/merchants/:mchNo/balance',
  statement: 'GET /admin/merchants/:mchNo/statement',
  statementCsv: 'GET /admin/merchants/:mchNo/statement.csv',
  check: 'GET /admin/ledger/check',
  settlements: 'GET /admin/settlements',
  settlementRuns: 'GET /admin/settlements/runs',
  runSettlement: 'POST /admin/settlements/run',
} as const;

export const ledgerCheck = z.object({
  ok: z.boolean(),
  entries: z.number(),
  accounts: z.number(),
  problems: z.array(z.string()),
});

export const settlementPage = z.object({
  items: z.array(
    z.object({
      mchNo: z.string(),
      available: z.number(),
      pending: z.number(),
      lastSettlement: z.optional(z.object({ at: z.string(), orderNo: z.string(), amount: z.number() })),
    }),
  ),
  next: z.optional(z.string()),
});

export const settlementRun = z.object({ settled: z.number(), until: z.string() });

export const settlementRunsPage = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      trigger: z.enum(['sweep', 'operator']),
      until: z.string(),
      startedAt: z.string(),
      finishedAt: z.string(),
      settled: z.number(),
      status: z.enum(['succeeded', 'failed']),
      error: z.optional(z.string()),
    }),
  ),
  next: z.optional(z.string()),
});

export function ledgerApi(client: ApiClient) {
  return {
    balance: (mchNo: string) => client.get(`/admin/merchants/${enc(mchNo)}/balance`, balanceParts),
    statement: (mchNo: string, query: Query) =>
      client.get(`/admin/merchants/${enc(mchNo)}/statement`, statementPage, query),
    /** The CSV's address, for a download link (the browser sends the session's cookie). */
    statementCsvHref: (mchNo: string, query: { from: string; to: string }) =>
      withQuery(`/admin/merchants/${enc(mchNo)}/statement.csv`, query),
    check: () => client.get('/admin/ledger/check', ledgerCheck),
    settlements: (cursor: string) => client.get('/admin/settlements', settlementPage, { cursor }),
    settlementRuns: (cursor: string) => client.get('/admin/settlements/runs', settlementRunsPage, { cursor }),
    runSettlement: () => client.send('POST', '/admin/settlements/run', {}, settlementRun),
  };
}
export type LedgerApi = ReturnType<typeof ledgerApi>;
