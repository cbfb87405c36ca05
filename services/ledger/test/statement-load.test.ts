import type { StatementLine__Output } from '@agentpay/proto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStatement } from '../src/reconciliation/reconciliation.repository.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';
import { line } from './support/statement-router.js';

// A day's statement goes into statement_lines batch by batch as it streams: memory holds one batch.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_statement_load');
});
afterAll(async () => {
  await t?.drop();
});

describe('loading a statement', () => {
  it('stores 20,000 lines in inserts of 1,000, never holding more than a batch that is not stored yet', async () => {
    const at = new Date('2026-11-20T18:00:00Z');
    let most = 0;
    const result = await t.db.transaction().execute(async (trx) => {
      async function* stream(): AsyncGenerator<StatementLine__Output> {
        for (let i = 0; i < 20_000; i++) {
          if (i % 250 === 0) {
            const { rows } = await sql<{ n: number }>`select count(*)::int as n from statement_lines
              where route_id = 'r-load'`.execute(trx);
            most = Math.max(most, i - (rows[0]?.n ?? 0));
          }
          yield line({ kind: 'payout', platform_ref: `T${i}`, amount: i + 1, at });
        }
      }
      return loadStatement(trx, 'r-load', '2026-11-20', stream(), 1_000);
    });
    expect(result).toEqual({ lines: 20_000, inserts: 20 });
    expect(most).toBeLessThanOrEqual(1_000);
    const stored = await sql<{
      n: number;
      total: string;
    }>`select count(*)::int as n, sum(amount)::text as total
      from statement_lines where route_id = 'r-load' and day = '2026-11-20'`.execute(t.db);
    expect(stored.rows[0]).toEqual({ n: 20_000, total: String((20_000 * 20_001) / 2) });
  });
});
