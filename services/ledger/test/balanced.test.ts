import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanced, type Command, UnbalancedEntryError } from '../src/ledger/booking.js';
import { bookBatch } from '../src/ledger/ledger.repository.js';
import { type FreshLedger, freshLedger, SETTLED_SUBJECT } from './support/fresh-ledger.js';

// Balanced by construction: the ledger writes an entry only from a set of movements `balanced()` let
// through, so an entry whose postings do not sum to zero is refused before anything is written, whatever
// the inputs (the use cases validate them too, but the books must not depend on that).

describe('balanced', () => {
  const movement = fc.record({
    account: fc.constantFrom('a', 'b', 'c', 'd'),
    amount: fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  });

  it('lets through exactly the movements whose amounts sum to zero', () => {
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 6 }), (movements) => {
        const sum = movements.reduce((s, mv) => s + BigInt(mv.amount), 0n);
        if (sum === 0n) expect(balanced('k', movements)).toBe(movements);
        else expect(() => balanced('k', movements)).toThrow(UnbalancedEntryError);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses a balanced set with one amount changed, even where a float sum would round to zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), { minLength: 1, maxLength: 5 }),
        fc.nat(4),
        fc.integer({ min: -1_000, max: 1_000 }).filter((d) => d !== 0),
        (amounts, at, delta) => {
          const exact = -amounts.reduce((s, a) => s + BigInt(a), 0n);
          fc.pre(exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER));
          const closing = Number(exact);
          const movements = [...amounts, closing].map((amount, i) => ({ account: `acc${i}`, amount }));
          expect(() => balanced('k', movements)).not.toThrow();
          const i = at % movements.length;
          const changed = movements.map((mv, j) => (j === i ? { ...mv, amount: mv.amount + delta } : mv));
          fc.pre(changed.every((mv) => Number.isSafeInteger(mv.amount)));
          expect(() => balanced('k', changed)).toThrow(UnbalancedEntryError);
        },
      ),
      { numRuns: 2_000 },
    );
    // 2^53 - 1 + 2 rounds to 2^53 as a float; the exact sum is 1.
    const big = Number.MAX_SAFE_INTEGER;
    expect(() =>
      balanced('k', [
        { account: 'a', amount: big },
        { account: 'b', amount: 2 },
        { account: 'c', amount: -big },
        { account: 'd', amount: -1 },
      ]),
    ).toThrow(UnbalancedEntryError);
    expect(() =>
      balanced('k', [
        { account: 'a', amount: 0.5 },
        { account: 'b', amount: -0.5 },
      ]),
    ).toThrow(/not whole centavos/);
  });
});

describe('bookBatch', () => {
  let t: FreshLedger;
  beforeAll(async () => {
    t = await freshLedger('ledger_balanced');
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** Pay-ins with unvalidated figures: real amount and fee need not add up to the amount. */
  const payIn = fc.record({
    amount: fc.integer({ min: 0, max: 1_000_000 }),
    fee: fc.integer({ min: -1_000, max: 1_000_000 }),
    realAmount: fc.integer({ min: -1_000, max: 1_000_000 }),
    settleType: fc.constantFrom('REALTIME' as const, 'D+1' as const),
  });

  it('writes nothing of a batch with an entry whose postings do not sum to zero, and books the balanced ones', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(payIn, { minLength: 1, maxLength: 4 }), async (figures) => {
        const commands: Command[] = figures.map((f) => {
          n += 1;
          return {
            type: 'pay_in',
            mchNo: 'M-BAL',
            orderNo: `P-BAL-${n}`,
            bizOrderNo: `B-${n}`,
            amount: f.amount,
            fee: f.fee,
            realAmount: f.realAmount,
            settleType: f.settleType,
            payTime: new Date('2026-11-20T12:00:00Z'),
            dueAt: new Date('2026-11-21T12:00:00Z'),
          };
        });
        const unbalanced = figures.some((f) => f.realAmount + f.fee !== f.amount);
        const rolledBack = new Error('roll back');
        await t.db
          .transaction()
          .execute(async (trx) => {
            const count = async () => {
              const { rows } = await sql<{
                entries: string;
                postings: string;
                outbox: string;
                moved: string;
              }>`
                select (select count(*) from entries) as entries, (select count(*) from postings) as postings,
                       (select count(*) from outbox) as outbox,
                       (select coalesce(sum(abs(balance)), 0) from accounts) as moved`.execute(trx);
              return rows[0];
            };
            const before = await count();
            const booking = bookBatch(trx, commands, {
              settledSubject: SETTLED_SUBJECT,
              now: new Date(),
              timeZone: 'America/Mexico_City',
            });
            if (unbalanced) {
              await expect(booking).rejects.toThrow(UnbalancedEntryError);
              // Refused before writing: the transaction itself holds nothing of the batch.
              expect(await count()).toEqual(before);
            } else {
              const outcomes = await booking;
              expect(outcomes.every((o) => o.kind === 'booked')).toBe(true);
              const { rows } = await sql<{ entry_id: string }>`
                select entry_id from postings group by entry_id having sum(amount) <> 0`.execute(trx);
              expect(rows).toEqual([]);
            }
            throw rolledBack;
          })
          .catch((err: unknown) => {
            if (err !== rolledBack) throw err;
          });
      }),
      { numRuns: 60 },
    );
  });
});
