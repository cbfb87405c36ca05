import { createLogger } from '@agentpay/logger';
import { createTestClock } from '@agentpay/runtime';
import { waitFor } from '@agentpay/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/ledger/check.repository.js';
import { LedgerError } from '../src/ledger/ledger.errors.js';
import type { Outcome } from '../src/ledger/ledger.repository.js';
import { startSettlementSweep } from '../src/settlement/settlement.sweep.js';
import { type FreshLedger, freshLedger, SETTLED_SUBJECT } from './support/fresh-ledger.js';

// Every use case against a real Postgres: what each books, that a repeat books nothing, and that a
// refusal writes nothing.

let t: FreshLedger;
let seq = 0;
const next = (prefix: string) => `${prefix}${++seq}`;

beforeAll(async () => {
  t = await freshLedger('ledger_flows');
});
afterAll(async () => {
  await t?.drop();
});

async function entriesOf(key: string): Promise<number> {
  const row = await t.db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function balanceOf(account: string): Promise<number> {
  const row = await t.db
    .selectFrom('accounts')
    .select('balance')
    .where('id', '=', account)
    .executeTakeFirst();
  return row?.balance ?? 0;
}

async function totalEntries(): Promise<number> {
  const row = await t.db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function booked(outcome: Outcome) {
  if (outcome.kind !== 'booked') throw new Error(`expected a booking, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A merchant with `available` centavos in its available part. */
async function merchantWith(available: number): Promise<string> {
  const mchNo = next('M');
  if (available > 0) {
    await t.ledger.adjust({ mchNo, amount: available, reason: 'opening', reference: 'opening' });
  }
  return mchNo;
}

async function captureRefusal(run: () => Promise<unknown>): Promise<LedgerError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof LedgerError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('pay-ins', () => {
  it('a D+1 pay-in books clearing -amount, pending +realAmount, fee revenue +fee in one entry; a repeat books nothing', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    const clearingBefore = await balanceOf('clearing:default');
    const feesBefore = await balanceOf('fee_revenue');
    const input = {
      mchNo,
      orderNo,
      bizOrderNo: 'B1',
      amount: 10_000,
      fee: 250,
      realAmount: 9_750,
      settleType: 'D+1',
      payTime: new Date(),
    };
    const first = booked(await t.ledger.payIn(input));
    expect(first.created).toBe(true);
    expect(first.entry).toMatchObject({
      type: 'pay_in',
      order_no: orderNo,
      biz_order_no: 'B1',
      amount: 10_000,
      fee: 250,
      pending_change: 9_750,
      available_change: 0,
      pending_after: 9_750,
    });
    const again = booked(await t.ledger.payIn(input));
    expect(again.created).toBe(false);
    expect(again.entry.id).toBe(first.entry.id);
    expect(await entriesOf(`pay_in:${orderNo}`)).toBe(1);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 0, pending: 9_750, frozen: 0 });
    expect(await balanceOf('clearing:default')).toBe(clearingBefore - 10_000);
    expect(await balanceOf('fee_revenue')).toBe(feesBefore + 250);
    const postings = await t.db
      .selectFrom('postings')
      .selectAll()
      .where('entry_id', '=', first.entry.id)
      .execute();
    expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
  });

  it('a REALTIME pay-in goes to available, is settled at its pay time, and announces it', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    const payTime = new Date('2026-11-20T18:00:00Z');
    booked(
      await t.ledger.payIn({
        mchNo,
        orderNo,
        bizOrderNo: 'B2',
        amount: 5_000,
        fee: 100,
        realAmount: 4_900,
        settleType: 'REALTIME',
        payTime,
      }),
    );
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 4_900, pending: 0, frozen: 0 });
    const payIn = await t.db
      .selectFrom('pay_ins')
      .selectAll()
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(payIn.settled_at).toEqual(payTime);
    const events = await t.db
      .selectFrom('outbox')
      .selectAll()
      .where('subject', '=', SETTLED_SUBJECT)
      .execute();
    const event = events.find((e) => (e.payload as { order_no: string }).order_no === orderNo);
    expect(event?.payload).toMatchObject({
      mch_no: mchNo,
      order_no: orderNo,
      settle_type: 'REALTIME',
      settle_time: payTime.toISOString(),
      real_amount: '4900',
    });
  });

  it('a pay-in whose fee takes all of it is settled at once, leaving nothing pending and no empty entry to settle', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    const input = {
      mchNo,
      orderNo,
      bizOrderNo: '',
      amount: 300,
      fee: 300,
      realAmount: 0,
      settleType: 'D+1',
      payTime: new Date(),
    };
    expect(booked(await t.ledger.payIn(input)).entry).toMatchObject({
      pending_change: 0,
      available_change: 0,
    });
    const payIn = await t.db
      .selectFrom('pay_ins')
      .selectAll()
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(payIn.settled_at).toEqual(input.payTime);
    await t.settlement.settleDue(new Date(Date.now() + 30 * 24 * 3_600_000));
    expect(await entriesOf(`settle:${orderNo}`)).toBe(0);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('refuses a pay-in whose figures do not add up, booking nothing', async () => {
    const error = await captureRefusal(() =>
      t.ledger.payIn({
        mchNo: next('M'),
        orderNo: next('P'),
        bizOrderNo: '',
        amount: 100,
        fee: 10,
        realAmount: 80,
        settleType: 'D+1',
        payTime: new Date(),
      }),
    );
    expect(error.code).toBe('INVALID_REQUEST');
  });
});

describe('settlement', () => {
  it('settles a D+1 pay-in only once it is due, moving realAmount pending -> available once, and announces it', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    // Tuesday 24 Nov 2026, 10:00 in Mexico City: due Wednesday 00:00 (06:00Z).
    const payTime = new Date('2026-11-24T16:00:00Z');
    booked(
      await t.ledger.payIn({
        mchNo,
        orderNo,
        bizOrderNo: 'B3',
        amount: 2_000,
        fee: 0,
        realAmount: 2_000,
        settleType: 'D+1',
        payTime,
      }),
    );
    const payIn = await t.db
      .selectFrom('pay_ins')
      .selectAll()
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(payIn.due_at).toEqual(new Date('2026-11-25T06:00:00Z'));

    await t.settlement.settleDue(new Date('2026-11-25T05:59:59Z'));
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 0, pending: 2_000, frozen: 0 });

    await t.settlement.settleDue(new Date('2026-11-25T06:00:00Z'));
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 2_000, pending: 0, frozen: 0 });
    await t.settlement.settleDue(new Date('2026-11-26T06:00:00Z'));
    expect(await entriesOf(`settle:${orderNo}`)).toBe(1);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 2_000, pending: 0, frozen: 0 });

    const settled = await t.db
      .selectFrom('pay_ins')
      .selectAll()
      .where('order_no', '=', orderNo)
      .executeTakeFirstOrThrow();
    expect(settled.settled_at).not.toBeNull();
    const events = await t.db
      .selectFrom('outbox')
      .selectAll()
      .where('subject', '=', SETTLED_SUBJECT)
      .execute();
    const event = events.find((e) => (e.payload as { order_no: string }).order_no === orderNo);
    expect(event?.payload).toMatchObject({ order_no: orderNo, settle_type: 'D+1', real_amount: '2000' });
    expect((event?.payload as { settle_time?: string } | undefined)?.settle_time).toBe(
      settled.settled_at?.toISOString(),
    );
  });

  it('the timer sweep settles a pay-in once it is due, without being asked', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    booked(
      await t.ledger.payIn({
        mchNo,
        orderNo,
        bizOrderNo: '',
        amount: 700,
        fee: 0,
        realAmount: 700,
        settleType: 'D+2',
        payTime: new Date(Date.now() - 10 * 24 * 3_600_000),
      }),
    );
    const sweep = startSettlementSweep({
      db: t.db,
      logger: createLogger({ service: 'ledger-test', level: 'silent' }),
      ledger: t.ledger,
      intervalMs: 20,
      batch: 50,
    });
    try {
      await waitFor(async () => (await entriesOf(`settle:${orderNo}`)) === 1, {
        message: 'settled by the sweep',
      });
    } finally {
      await sweep.stop();
    }
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 700, pending: 0, frozen: 0 });
  });

  it('the sweep reads its clock: a pay-in paid now settles when the clock is moved past its day, not before', async () => {
    const mchNo = next('M');
    const orderNo = next('P');
    const clock = createTestClock();
    booked(
      await t.ledger.payIn({
        mchNo,
        orderNo,
        bizOrderNo: '',
        amount: 900,
        fee: 0,
        realAmount: 900,
        settleType: 'D+1',
        payTime: clock.now(),
      }),
    );
    const sweep = startSettlementSweep({
      db: t.db,
      logger: createLogger({ service: 'ledger-test', level: 'silent' }),
      ledger: t.ledger,
      intervalMs: 0,
      batch: 50,
      clock,
    });
    try {
      await sweep.settleDue();
      expect(await entriesOf(`settle:${orderNo}`)).toBe(0);
      // D+1 is the next business day: ten days ahead passes it, whatever weekends and holidays lie between.
      clock.advance(10 * 24 * 3_600_000);
      await sweep.settleDue();
      expect(await entriesOf(`settle:${orderNo}`)).toBe(1);
    } finally {
      await sweep.stop();
    }
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 900, pending: 0, frozen: 0 });
  });

  it('settles everything due in bounded batches (more pay-ins than one batch)', async () => {
    const mchNo = next('M');
    const payTime = new Date('2026-11-24T16:00:00Z');
    for (let i = 0; i < 20; i++) {
      booked(
        await t.ledger.payIn({
          mchNo,
          orderNo: next('P'),
          bizOrderNo: '',
          amount: 100,
          fee: 0,
          realAmount: 100,
          settleType: 'D+1',
          payTime,
        }),
      );
    }
    await t.settlement.settleDue(new Date('2026-11-25T06:00:00Z'));
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 2_000, pending: 0, frozen: 0 });
  });
});

describe('freezes and transfer outcomes', () => {
  it('freezes amount + fee from available; a repeat answers the same entry; more than available is refused writing nothing', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    const first = await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: 'BT', amount: 600, fee: 50 });
    expect(first.created).toBe(true);
    expect(first.entry).toMatchObject({
      type: 'transfer_freeze',
      available_change: -650,
      frozen_change: 650,
    });
    const again = await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: 'BT', amount: 600, fee: 50 });
    expect(again).toMatchObject({ created: false, entry: { id: first.entry.id } });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 350, pending: 0, frozen: 650 });

    const entriesBefore = await totalEntries();
    const refused = next('T');
    const error = await captureRefusal(() =>
      t.ledger.freeze({ mchNo, transferNo: refused, bizTransferNo: 'BT2', amount: 300, fee: 51 }),
    );
    expect(error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await totalEntries()).toBe(entriesBefore);
    expect(await t.db.selectFrom('holds').selectAll().where('transfer_no', '=', refused).execute()).toEqual(
      [],
    );
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 350, pending: 0, frozen: 650 });
    // Refused is not forbidden: the same transfer number fits once the money is there.
    await t.ledger.adjust({ mchNo, amount: 1, reason: 'top up', reference: 'top-up' });
    expect(
      (await t.ledger.freeze({ mchNo, transferNo: refused, bizTransferNo: 'BT2', amount: 300, fee: 51 }))
        .created,
    ).toBe(true);
  });

  it('a repeat of a freeze with other figures is refused', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 100, fee: 0 });
    const error = await captureRefusal(() =>
      t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 200, fee: 0 }),
    );
    expect(error.code).toBe('KEY_CONFLICT');
  });

  it('fail releases the freeze once', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 400, fee: 20 });
    const released = booked(await t.ledger.unfreeze(mchNo, transferNo));
    expect(released.entry).toMatchObject({
      type: 'transfer_unfreeze',
      available_change: 420,
      frozen_change: -420,
    });
    expect(booked(await t.ledger.unfreeze(mchNo, transferNo)).created).toBe(false);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 1_000, pending: 0, frozen: 0 });
  });

  it('success moves the frozen amount to clearing and the fee to fee revenue; a return brings the amount back and keeps the fee', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    const clearing = await balanceOf('clearing:default');
    const fees = await balanceOf('fee_revenue');
    await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 500, fee: 30 });
    booked(await t.ledger.transferOut(mchNo, transferNo));
    expect(booked(await t.ledger.transferOut(mchNo, transferNo)).created).toBe(false);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 470, pending: 0, frozen: 0 });
    expect(await balanceOf('clearing:default')).toBe(clearing + 500);
    expect(await balanceOf('fee_revenue')).toBe(fees + 30);

    const back = booked(await t.ledger.transferReturn(mchNo, transferNo));
    expect(back.entry).toMatchObject({
      type: 'transfer_return',
      available_change: 500,
      amount: 500,
      fee: 30,
    });
    expect(booked(await t.ledger.transferReturn(mchNo, transferNo)).created).toBe(false);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 970, pending: 0, frozen: 0 });
    expect(await balanceOf('clearing:default')).toBe(clearing);
    expect(await balanceOf('fee_revenue')).toBe(fees + 30);
    // An outcome after the transfer moved on changes nothing.
    expect((await t.ledger.unfreeze(mchNo, transferNo)).kind).toBe('skipped');
  });

  it('an outcome for a transfer with no freeze books nothing', async () => {
    const mchNo = next('M');
    const before = await totalEntries();
    expect(await t.ledger.transferOut(mchNo, next('T'))).toMatchObject({ kind: 'skipped' });
    expect(await t.ledger.unfreeze(mchNo, next('T'))).toMatchObject({ kind: 'skipped' });
    expect(await totalEntries()).toBe(before);
  });
});

describe('voidFreeze', () => {
  it('releases a freeze whose transfer was never created, once, and refuses a late freeze of the same transfer', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 300, fee: 0 });
    expect(await t.ledger.voidFreeze(mchNo, transferNo)).toEqual({ released: true, holdStatus: 'void' });
    expect(await t.ledger.voidFreeze(mchNo, transferNo)).toEqual({ released: true, holdStatus: 'void' });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 1_000, pending: 0, frozen: 0 });
    expect(await entriesOf(`void_freeze:${transferNo}`)).toBe(1);
    const error = await captureRefusal(() =>
      t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 300, fee: 0 }),
    );
    expect(error.code).toBe('FREEZE_VOIDED');
  });

  it('leaves a tombstone when no freeze exists yet, so the late freeze is refused', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    const before = await totalEntries();
    expect(await t.ledger.voidFreeze(mchNo, transferNo)).toEqual({ released: false, holdStatus: 'void' });
    expect(await totalEntries()).toBe(before);
    const error = await captureRefusal(() =>
      t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 10, fee: 0 }),
    );
    expect(error.code).toBe('FREEZE_VOIDED');
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 1_000, pending: 0, frozen: 0 });
  });

  it('changes nothing for a transfer that already moved on', async () => {
    const mchNo = await merchantWith(1_000);
    const transferNo = next('T');
    await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: '', amount: 300, fee: 0 });
    await t.ledger.transferOut(mchNo, transferNo);
    expect(await t.ledger.voidFreeze(mchNo, transferNo)).toEqual({ released: false, holdStatus: 'out' });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 700, pending: 0, frozen: 0 });
  });
});

describe('adjustments', () => {
  it('credits and debits available against the adjustments account, idempotent by reference', async () => {
    const mchNo = next('M');
    const adjustments = await balanceOf('adjustments');
    const credit = await t.ledger.adjust({ mchNo, amount: 800, reason: 'goodwill', reference: 'r1' });
    expect(credit.entry).toMatchObject({
      type: 'adjust',
      amount: 800,
      remark: 'goodwill',
      available_after: 800,
    });
    expect((await t.ledger.adjust({ mchNo, amount: 800, reason: 'goodwill', reference: 'r1' })).created).toBe(
      false,
    );
    await t.ledger.adjust({ mchNo, amount: -300, reason: 'chargeback', reference: 'r2' });
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 500, pending: 0, frozen: 0 });
    expect(await balanceOf('adjustments')).toBe(adjustments - 500);

    expect(
      (await captureRefusal(() => t.ledger.adjust({ mchNo, amount: -501, reason: 'x', reference: 'r3' })))
        .code,
    ).toBe('INSUFFICIENT_BALANCE');
    expect(
      (await captureRefusal(() => t.ledger.adjust({ mchNo, amount: 5, reason: 'x', reference: 'r1' }))).code,
    ).toBe('KEY_CONFLICT');
    expect(
      (await captureRefusal(() => t.ledger.adjust({ mchNo, amount: 0, reason: 'x', reference: 'r4' }))).code,
    ).toBe('INVALID_REQUEST');
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 500, pending: 0, frozen: 0 });
  });
});

describe('the books', () => {
  it('check() finds every invariant holding after all of the above', async () => {
    const report = await checkLedger(t.db);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.entries).toBe(await totalEntries());
    expect(report.accounts).toBeGreaterThan(3);
  });

  it('the journal refuses an edit or a deletion', async () => {
    await expect(sql`update entries set amount = amount + 1`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from postings`.execute(t.db)).rejects.toThrow(/append-only/);
  });

  it('a merchant part cannot go below zero even by hand', async () => {
    await expect(
      sql`update accounts set balance = -1 where kind = 'available' and id = (select min(id) from accounts where kind = 'available')`.execute(
        t.db,
      ),
    ).rejects.toThrow(/accounts_merchant_not_negative/);
  });

  it('check() reports an account whose balance no longer matches its postings', async () => {
    await sql`update accounts set balance = balance + 1 where id = 'fee_revenue'`.execute(t.db);
    const report = await checkLedger(t.db);
    expect(report.ok).toBe(false);
    expect(report.problems).toContain('account balance differs from its postings: fee_revenue');
    await sql`update accounts set balance = balance - 1 where id = 'fee_revenue'`.execute(t.db);
    expect((await checkLedger(t.db)).ok).toBe(true);
  });
});
