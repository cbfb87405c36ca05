import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/ledger/check.repository.js';
import { isLedgerError } from '../src/ledger/ledger.errors.js';
import type { LedgerService } from '../src/ledger/ledger.service.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// Concurrent freezes of one merchant from several replicas: exactly those that fit are accepted, and
// available is never below zero, neither in the account row sampled while they run nor in any posting.

let t: FreshLedger;

beforeAll(async () => {
  t = await freshLedger('ledger_concurrency');
});
afterAll(async () => {
  await t?.drop();
});

const FREEZES = 50;
const AMOUNT = 290;
const FEE = 10;
const OPENING = 10_050;
/** floor(10050 / 300) */
const FIT = 33;

describe('concurrent freezes of one merchant', () => {
  it(`${FREEZES} at once over three replicas that together exceed the balance: exactly ${FIT} are accepted, available never below zero`, async () => {
    const mchNo = 'MHOT';
    await t.ledger.adjust({ mchNo, amount: OPENING, reason: 'opening', reference: 'opening' });
    // Three replicas on one database, one of them booking small batches, so the freezes meet both in a
    // batch and at the row locks.
    const replicas: LedgerService[] = [t.ledger, t.replica({ maxBatch: 3 }), t.replica({ maxBatch: 1 })];

    const samples: number[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        const row = await t.db
          .selectFrom('accounts')
          .select('balance')
          .where('id', '=', `mch:${mchNo}:available`)
          .executeTakeFirstOrThrow();
        samples.push(row.balance);
        await new Promise((r) => setImmediate(r));
      }
    })();

    const results = await Promise.allSettled(
      Array.from({ length: FREEZES }, (_, i) =>
        replicas[i % replicas.length]?.freeze({
          mchNo,
          transferNo: `T${i}`,
          bizTransferNo: `BT${i}`,
          amount: AMOUNT,
          fee: FEE,
        }),
      ),
    );
    running = false;
    await sampler;

    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(accepted).toHaveLength(FIT);
    expect(refused).toHaveLength(FREEZES - FIT);
    for (const r of refused) {
      const reason = (r as PromiseRejectedResult).reason;
      expect(isLedgerError(reason) && reason.code).toBe('INSUFFICIENT_BALANCE');
    }
    expect(samples.length).toBeGreaterThan(0);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    const lowest = await t.db
      .selectFrom('postings')
      .select((eb) => eb.fn.min<number>('balance_after').as('lowest'))
      .where('account', '=', `mch:${mchNo}:available`)
      .executeTakeFirstOrThrow();
    expect(Number(lowest.lowest)).toBeGreaterThanOrEqual(0);
    expect(await t.ledger.balance(mchNo)).toEqual({
      available: OPENING - FIT * (AMOUNT + FEE),
      pending: 0,
      frozen: FIT * (AMOUNT + FEE),
    });
    const holds = await t.db.selectFrom('holds').selectAll().where('mch_no', '=', mchNo).execute();
    expect(holds).toHaveLength(FIT);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });

  it('the same freeze sent concurrently to several replicas is booked once', async () => {
    const mchNo = 'MDUP';
    await t.ledger.adjust({ mchNo, amount: 1_000, reason: 'opening', reference: 'opening' });
    const replicas = [t.ledger, t.replica(), t.replica({ maxBatch: 1 })];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        replicas[i % replicas.length]?.freeze({
          mchNo,
          transferNo: 'TSAME',
          bizTransferNo: 'B',
          amount: 100,
          fee: 0,
        }),
      ),
    );
    expect(new Set(results.map((r) => r?.entry.id)).size).toBe(1);
    expect(results.filter((r) => r?.created)).toHaveLength(1);
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 900, pending: 0, frozen: 100 });
  });

  it('a Freeze and a VoidFreeze of one transfer racing on two replicas leave no freeze held', async () => {
    const mchNo = 'MRACE';
    await t.ledger.adjust({ mchNo, amount: 10_000, reason: 'opening', reference: 'opening' });
    const other = t.replica({ maxBatch: 1 });
    for (let i = 0; i < 20; i++) {
      const transferNo = `TRACE${i}`;
      const [frozen, voided] = await Promise.allSettled([
        (i % 2 ? t.ledger : other).freeze({ mchNo, transferNo, bizTransferNo: '', amount: 100, fee: 5 }),
        (i % 2 ? other : t.ledger).voidFreeze(mchNo, transferNo),
      ]);
      expect(voided.status).toBe('fulfilled');
      // Whichever came first, the transfer is void: either its freeze was released or it was refused.
      if (frozen.status === 'rejected') {
        expect(isLedgerError(frozen.reason) && frozen.reason.code).toBe('FREEZE_VOIDED');
      }
      const hold = await t.db
        .selectFrom('holds')
        .selectAll()
        .where('transfer_no', '=', transferNo)
        .executeTakeFirstOrThrow();
      expect(hold.status).toBe('void');
    }
    expect(await t.ledger.balance(mchNo)).toEqual({ available: 10_000, pending: 0, frozen: 0 });
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
