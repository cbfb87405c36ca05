import { NO_PAYOUT_LIMITS, type PayoutLimits } from '@agentpay/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/ledger/check.repository.js';
import { isLedgerError } from '../src/ledger/ledger.errors.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// A batch payout's freeze (CONTRACT section 21): every item of the batch is frozen and counted in the payout
// usage in one transaction, or none is; the balance and the limits see the items one after the other, so
// the batch is funded and limited as one; a repeat books nothing.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_freeze_batch');
});
afterAll(async () => {
  await t?.drop();
});

const limits = (over: Partial<PayoutLimits>): PayoutLimits => ({ ...NO_PAYOUT_LIMITS, ...over });
const items = (prefix: string, count: number, amount: number, fee: number) =>
  Array.from({ length: count }, (_, i) => ({
    transferNo: `${prefix}${i}`,
    bizTransferNo: `B${prefix}${i}`,
    amount,
    fee,
  }));

async function refusal(run: Promise<unknown>): Promise<string> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLedgerError(err)) throw new Error(`expected a ledger refusal, got ${String(err)}`);
  return `${err.code} ${err.detail ?? ''}`.trim();
}

describe('FreezeBatch', () => {
  it('freezes every item and counts each in the usage, in one transaction; a repeat books nothing', async () => {
    const mchNo = 'MBATCH1';
    await t.ledger.adjust({ mchNo, amount: 1_000_000, reason: 'opening', reference: 'opening' });
    const batch = items('TB1-', 1_000, 900, 100);
    const started = performance.now();
    expect(await t.ledger.freezeBatch({ mchNo, items: batch })).toEqual({ created: 1_000 });
    console.log(`[freeze-batch] 1,000 freezes booked in ${(performance.now() - started).toFixed(0)} ms`);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 0, pending: 0, frozen: 1_000_000 });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 900_000, count: 1_000 });
    expect(await t.ledger.freezeBatch({ mchNo, items: batch })).toEqual({ created: 0 });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 0, pending: 0, frozen: 1_000_000 });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 900_000, count: 1_000 });
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('a batch one centavo over the available balance is refused whole: nothing frozen or counted', async () => {
    const mchNo = 'MBATCH2';
    await t.ledger.adjust({ mchNo, amount: 99_999, reason: 'opening', reference: 'opening' });
    // 100 items of 999 + 1 fee = 100,000 > 99,999: the last item does not fit, so none is frozen.
    expect(await refusal(t.ledger.freezeBatch({ mchNo, items: items('TB2-', 100, 999, 1) }))).toMatch(
      /^INSUFFICIENT_BALANCE/,
    );
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 99_999, pending: 0, frozen: 0 });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 0, count: 0 });
    expect(
      await t.db.selectFrom('holds').where('transfer_no', 'like', 'TB2-%').selectAll().execute(),
    ).toEqual([]);
    // One item fewer fits exactly.
    expect(await t.ledger.freezeBatch({ mchNo, items: items('TB2-', 99, 999, 1) })).toEqual({ created: 99 });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 999, pending: 0, frozen: 99_000 });
  });

  it('the limits count the batch as its items one after the other: the item that passes one refuses all', async () => {
    const mchNo = 'MBATCH3';
    await t.ledger.adjust({ mchNo, amount: 10_000_000, reason: 'opening', reference: 'opening' });
    await t.ledger.freeze({ mchNo, transferNo: 'TB3-single', bizTransferNo: 'S', amount: 1_000, fee: 0 });
    // 1,000 already counted today; 10 items of 1,000 against a daily limit of 10,000: the tenth passes it.
    expect(
      await refusal(
        t.ledger.freezeBatch({
          mchNo,
          items: items('TB3-', 10, 1_000, 0),
          limits: limits({ daily: 10_000 }),
        }),
      ),
    ).toBe('LIMIT_EXCEEDED payout.daily');
    expect(
      await refusal(
        t.ledger.freezeBatch({ mchNo, items: items('TB3-', 5, 1_000, 0), limits: limits({ dailyCount: 5 }) }),
      ),
    ).toBe('LIMIT_EXCEEDED payout.dailyCount');
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 1_000, count: 1 });
    expect(
      await t.ledger.freezeBatch({
        mchNo,
        items: items('TB3-', 9, 1_000, 0),
        limits: limits({ daily: 10_000 }),
      }),
    ).toEqual({ created: 9 });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 10_000, count: 10 });
    expect((await checkLedger(t.db)).ok).toBe(true);
  });

  it('refuses a batch that repeats a transfer number or holds none', async () => {
    expect(
      await refusal(
        t.ledger.freezeBatch({
          mchNo: 'MBATCH4',
          items: [...items('TB4-', 2, 100, 0), ...items('TB4-', 1, 100, 0)],
        }),
      ),
    ).toMatch(/^INVALID_REQUEST items\[2\]\.transfer_no/);
    expect(await refusal(t.ledger.freezeBatch({ mchNo: 'MBATCH4', items: [] }))).toMatch(/^INVALID_REQUEST/);
  });
});
