import { NO_PAYOUT_LIMITS, type PayoutLimits } from '@agentpay/api';
import { createTestClock } from '@agentpay/runtime';
import { formatWireTime, parseWireTime } from '@agentpay/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/ledger/check.repository.js';
import { isLedgerError } from '../src/ledger/ledger.errors.js';
import type { LedgerService } from '../src/ledger/ledger.service.js';
import { type FreshLedger, freshLedger, TIME_ZONE } from './support/fresh-ledger.js';

// Payout limits (CONTRACT section 19) are as exact as the balance: counted in the freeze's transaction,
// refused with the limit named and nothing written, given back when the payout never left, kept when it
// left and came back, never counted twice, right across replicas and across Mexico City midnight.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_limits');
});
afterAll(async () => {
  await t?.drop();
});

const limits = (over: Partial<PayoutLimits>): PayoutLimits => ({ ...NO_PAYOUT_LIMITS, ...over });

async function fund(ledger: LedgerService, mchNo: string, amount: number): Promise<void> {
  await ledger.adjust({ mchNo, amount, reason: 'opening', reference: `opening-${mchNo}` });
}

function refusal(err: unknown): string {
  if (!isLedgerError(err)) throw err;
  return `${err.code} ${err.detail ?? ''}`.trim();
}

describe('payout limits in the freeze', () => {
  it('a payout above payout.perTransfer is refused naming it, and nothing is frozen or counted', async () => {
    const mchNo = 'MPER';
    await fund(t.ledger, mchNo, 1_000_000);
    const before = await t.ledger.balance(mchNo);
    const err = await t.ledger
      .freeze({
        mchNo,
        transferNo: 'TPER1',
        bizTransferNo: 'B1',
        amount: 50_001,
        fee: 0,
        limits: limits({ perTransfer: 50_000 }),
      })
      .catch((e: unknown) => e);
    expect(refusal(err)).toBe('LIMIT_EXCEEDED payout.perTransfer');
    expect(await t.ledger.balance(mchNo)).toEqual(before);
    const usage = await t.ledger.usage(mchNo);
    expect(usage.dayUsage).toEqual({ amount: 0, count: 0 });
    expect(await t.db.selectFrom('holds').where('transfer_no', '=', 'TPER1').selectAll().execute()).toEqual(
      [],
    );
    // At the limit exactly is allowed.
    await t.ledger.freeze({
      mchNo,
      transferNo: 'TPER2',
      bizTransferNo: 'B2',
      amount: 50_000,
      fee: 0,
      limits: limits({ perTransfer: 50_000 }),
    });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 50_000, count: 1 });
  });

  it('40 concurrent payouts over three replicas near payout.daily: exactly those that fit are accepted', async () => {
    const mchNo = 'MDAY';
    await fund(t.ledger, mchNo, 10_000_000);
    const replicas = [t.ledger, t.replica({ maxBatch: 3 }), t.replica({ maxBatch: 1 })];
    // 40 payouts of 1,000.00 against a daily limit of 13,500.00: 13 fit.
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        replicas[i % replicas.length]?.freeze({
          mchNo,
          transferNo: `TD${i}`,
          bizTransferNo: `BD${i}`,
          amount: 100_000,
          fee: 500,
          limits: limits({ daily: 1_350_000 }),
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    expect(accepted).toHaveLength(13);
    for (const r of results)
      if (r.status === 'rejected') expect(refusal(r.reason)).toBe('LIMIT_EXCEEDED payout.daily');
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 1_300_000, count: 13 });
    expect(await t.ledger.balance(mchNo)).toEqual({
      available: 10_000_000 - 13 * 100_500,
      pending: 0,
      frozen: 13 * 100_500,
    });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('payout.dailyCount and payout.monthly are named when they are the limit passed', async () => {
    const mchNo = 'MCNT';
    await fund(t.ledger, mchNo, 1_000_000);
    const count = limits({ dailyCount: 2 });
    await t.ledger.freeze({
      mchNo,
      transferNo: 'TC1',
      bizTransferNo: 'C1',
      amount: 100,
      fee: 0,
      limits: count,
    });
    await t.ledger.freeze({
      mchNo,
      transferNo: 'TC2',
      bizTransferNo: 'C2',
      amount: 100,
      fee: 0,
      limits: count,
    });
    const third = await t.ledger
      .freeze({ mchNo, transferNo: 'TC3', bizTransferNo: 'C3', amount: 100, fee: 0, limits: count })
      .catch((e: unknown) => e);
    expect(refusal(third)).toBe('LIMIT_EXCEEDED payout.dailyCount');
    const month = await t.ledger
      .freeze({
        mchNo,
        transferNo: 'TC4',
        bizTransferNo: 'C4',
        amount: 300,
        fee: 0,
        limits: limits({ monthly: 400 }),
      })
      .catch((e: unknown) => e);
    expect(refusal(month)).toBe('LIMIT_EXCEEDED payout.monthly');
  });

  it('a payout that failed before leaving gives its usage back once; one that left and came back does not', async () => {
    const mchNo = 'MBACK';
    await fund(t.ledger, mchNo, 1_000_000);
    const daily = limits({ daily: 30_000 });
    for (const n of [1, 2, 3]) {
      await t.ledger.freeze({
        mchNo,
        transferNo: `TB${n}`,
        bizTransferNo: `BB${n}`,
        amount: 10_000,
        fee: 100,
        limits: daily,
      });
    }
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 30_000, count: 3 });
    // TB1 failed (unfreeze, delivered twice), TB2 was voided by recovery, TB3 left and was returned.
    await t.ledger.unfreeze(mchNo, 'TB1');
    await t.ledger.unfreeze(mchNo, 'TB1');
    await t.ledger.voidFreeze(mchNo, 'TB2');
    await t.ledger.voidFreeze(mchNo, 'TB2');
    await t.ledger.transferOut(mchNo, 'TB3');
    await t.ledger.transferReturn(mchNo, 'TB3');
    await t.ledger.transferReturn(mchNo, 'TB3');
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 10_000, count: 1 });
    // A retried freeze of a counted payout counts nothing more.
    await t.ledger.freeze({
      mchNo,
      transferNo: 'TB3',
      bizTransferNo: 'BB3',
      amount: 10_000,
      fee: 100,
      limits: daily,
    });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 10_000, count: 1 });
    // What was given back can be used again.
    await t.ledger.freeze({
      mchNo,
      transferNo: 'TB4',
      bizTransferNo: 'BB4',
      amount: 20_000,
      fee: 0,
      limits: daily,
    });
    expect((await t.ledger.usage(mchNo)).dayUsage).toEqual({ amount: 30_000, count: 2 });
    expect((await checkLedger(t.db)).problems).toEqual([]);
    // The check proves the usage from the holds: a counter moved by hand is named.
    const day = (await t.ledger.usage(mchNo)).day;
    await t.db
      .updateTable('payout_usage')
      .set((eb) => ({ amount: eb('amount', '+', 1) }))
      .where('mch_no', '=', mchNo)
      .where('period', '=', day)
      .execute();
    expect((await checkLedger(t.db)).problems).toEqual([
      `payout usage differs from the payouts it counts: ${mchNo} ${day}`,
    ]);
    await t.db
      .updateTable('payout_usage')
      .set((eb) => ({ amount: eb('amount', '-', 1) }))
      .where('mch_no', '=', mchNo)
      .where('period', '=', day)
      .execute();
  });

  it('a new Mexico City day starts from zero, and a payout of the day before failing after midnight gives back to its own day', async () => {
    const mchNo = 'MMID';
    const clock = createTestClock();
    const ledger = t.replica({ clock });
    await fund(ledger, mchNo, 1_000_000);
    // Move to five seconds before the next midnight in Mexico City.
    const today = formatWireTime(clock.now(), TIME_ZONE).slice(0, 10);
    const nextDay = formatWireTime(new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000), TIME_ZONE).slice(
      0,
      10,
    );
    const midnight = parseWireTime(`${nextDay} 00:00:00`, TIME_ZONE);
    if (!midnight) throw new Error('no midnight');
    clock.advance(Math.max(0, midnight.getTime() - clock.now().getTime() - 5_000));
    const daily = limits({ daily: 20_000 });
    await ledger.freeze({
      mchNo,
      transferNo: 'TM1',
      bizTransferNo: 'M1',
      amount: 20_000,
      fee: 0,
      limits: daily,
    });
    const late = await ledger
      .freeze({ mchNo, transferNo: 'TM2', bizTransferNo: 'M2', amount: 1, fee: 0, limits: daily })
      .catch((e: unknown) => e);
    expect(refusal(late)).toBe('LIMIT_EXCEEDED payout.daily');
    const before = await ledger.usage(mchNo);

    clock.advance(10_000);
    const after = await ledger.usage(mchNo);
    expect(after.day).toBe(nextDay);
    expect(after.day).not.toBe(before.day);
    expect(after.dayUsage).toEqual({ amount: 0, count: 0 });
    await ledger.freeze({
      mchNo,
      transferNo: 'TM3',
      bizTransferNo: 'M3',
      amount: 20_000,
      fee: 0,
      limits: daily,
    });
    // The day before's payout fails now: its own day gets it back, today's count stays.
    await ledger.unfreeze(mchNo, 'TM1');
    expect((await ledger.usage(mchNo)).dayUsage).toEqual({ amount: 20_000, count: 1 });
    const yesterday = await t.db
      .selectFrom('payout_usage')
      .select(['amount', 'count'])
      .where('mch_no', '=', mchNo)
      .where('period', '=', before.day)
      .executeTakeFirstOrThrow();
    expect(yesterday).toEqual({ amount: 0, count: 0 });
    // The month (the same one or the next) holds only TM3: TM1's give-back left its own month too.
    expect((await ledger.usage(mchNo)).monthUsage).toEqual({ amount: 20_000, count: 1 });
  });
});
