import { createLogger } from '@agentpay/logger';
import { createTestClock } from '@agentpay/runtime';
import { waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from '../src/ledger/ledger.errors.js';
import type { LedgerService } from '../src/ledger/ledger.service.js';
import { startSettlementSweep } from '../src/settlement/settlement.sweep.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// The settlement runs the ledger records (services/ledger/README.md "Settlement runs"): an operator's run
// always, a timer round only when it settled something or failed, each with its count and status.

const DAY = 24 * 3_600_000;
const logger = createLogger({ service: 'ledger-test', level: 'silent' });

let t: FreshLedger;
let seq = 0;
const next = (prefix: string) => `${prefix}${++seq}`;

beforeAll(async () => {
  t = await freshLedger('ledger_settlement_runs');
});
afterAll(async () => {
  await t?.drop();
});

/** `n` D+1 pay-ins of 100 centavos for one new merchant, paid at `payTime`. */
async function payIns(n: number, payTime: Date): Promise<string> {
  const mchNo = next('M');
  for (let i = 0; i < n; i++) {
    const outcome = await t.ledger.payIn({
      mchNo,
      orderNo: next('P'),
      bizOrderNo: '',
      amount: 100,
      fee: 0,
      realAmount: 100,
      settleType: 'D+1',
      payTime,
    });
    expect(outcome.kind).toBe('booked');
  }
  return mchNo;
}

const allRuns = async () => (await t.settlement.runs({ limit: 500, after: '' })).items;

describe('settlement runs', () => {
  it("an operator's run records one row with what it settled, on the sweep's clock; one with nothing due records 0", async () => {
    const clock = createTestClock();
    await payIns(3, clock.now());
    // Past D+1 whatever weekends and holidays lie between.
    clock.advance(100 * DAY);
    const sweep = startSettlementSweep({
      db: t.db,
      logger,
      ledger: t.ledger,
      intervalMs: 0,
      batch: 2,
      clock,
    });
    try {
      const before = Date.now() + 99 * DAY;
      expect(await sweep.settleDue()).toBe(3);
      const [run] = await allRuns();
      expect(run).toMatchObject({ trigger: 'operator', settled: 3, status: 'succeeded', error: '' });
      expect(run?.started_at.getTime()).toBeGreaterThan(before);
      expect(run?.finished_at.getTime()).toBeGreaterThanOrEqual(run?.started_at.getTime() ?? Infinity);
      expect(run?.until.getTime()).toBeLessThanOrEqual(run?.started_at.getTime() ?? 0);

      const until = new Date(clock.now().getTime() - DAY);
      expect(await sweep.settleDue(until, { trigger: 'operator' })).toBe(0);
      const [empty, first] = await allRuns();
      expect(empty).toMatchObject({ trigger: 'operator', settled: 0, status: 'succeeded', until });
      expect(first?.id).toBe(run?.id);
    } finally {
      await sweep.stop();
    }
  });

  it('the timer records a round that settled something and no round with nothing due', async () => {
    const sweepRuns = async () => (await allRuns()).filter((r) => r.trigger === 'sweep');
    const clock = createTestClock();
    const sweep = startSettlementSweep({
      db: t.db,
      logger,
      ledger: t.ledger,
      intervalMs: 20,
      batch: 50,
      clock,
    });
    try {
      // Idle rounds (nothing is due, then two pay-ins not due yet): each 300 ms is a dozen rounds.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const mchNo = await payIns(2, clock.now());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await sweepRuns()).toEqual([]);

      // Both come due at once: one round settles them.
      clock.advance(100 * DAY);
      await waitFor(async () => (await sweepRuns()).length > 0, { message: 'a sweep run recorded' });
      expect(await t.ledger.balance(mchNo)).toMatchObject({ available: 200, pending: 0 });
      // The idle rounds after it add nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const runs = await sweepRuns();
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: 'sweep', settled: 2, status: 'succeeded' });
    } finally {
      await sweep.stop();
    }
  });

  it('a run that fails records failed with its error, counting the batches settled before it', async () => {
    const payTime = new Date(Date.now() - 10 * DAY);
    const mchNo = await payIns(2, payTime);
    let calls = 0;
    const failing: LedgerService = {
      ...t.ledger,
      bookNow: (commands) => {
        calls += 1;
        return calls === 1 ? t.ledger.bookNow(commands) : Promise.reject(new Error('the ledger is down'));
      },
    };
    const sweep = startSettlementSweep({ db: t.db, logger, ledger: failing, intervalMs: 0, batch: 1 });
    try {
      await expect(sweep.settleDue()).rejects.toThrow('the ledger is down');
      const [run] = await allRuns();
      expect(run).toMatchObject({
        trigger: 'operator',
        settled: 1,
        status: 'failed',
        error: 'the ledger is down',
      });
      // The timer's round records its failure too.
      await expect(sweep.settleDue(new Date(), { wait: false, trigger: 'sweep' })).rejects.toThrow();
      const [round] = await allRuns();
      expect(round).toMatchObject({
        trigger: 'sweep',
        settled: 0,
        status: 'failed',
        error: 'the ledger is down',
      });
    } finally {
      await sweep.stop();
    }
    // What the failed run left due settles on the next one.
    expect(await t.settlement.settleDue()).toBe(1);
    expect(await t.ledger.balance(mchNo)).toMatchObject({ available: 200, pending: 0 });
  });

  it('lists the runs newest first in keyset pages, and refuses a bad limit or cursor', async () => {
    for (let i = 0; i < 3; i++) await t.settlement.settleDue(new Date(Date.now() - 365 * DAY));
    const all = await allRuns();
    expect(all.length).toBeGreaterThanOrEqual(5);
    const ids = all.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const seen: number[] = [];
    let after = '';
    for (;;) {
      const page = await t.settlement.runs({ limit: 2, after });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((r) => Number(r.id)));
      if (page.next === null) break;
      after = String(page.next);
    }
    expect(seen).toEqual(ids);

    for (const bad of [
      { limit: 501, after: '' },
      { limit: -1, after: '' },
      { limit: 10, after: 'x1' },
    ]) {
      await expect(t.settlement.runs(bad)).rejects.toBeInstanceOf(LedgerError);
    }
  });
});
