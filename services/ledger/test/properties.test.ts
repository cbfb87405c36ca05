import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookEvent } from '../src/events/status-changed.handler.js';
import type { StatusChanged } from '../src/events/status-changed.schema.js';
import { checkLedger } from '../src/ledger/check.repository.js';
import { isLedgerError, type LedgerErrorCode } from '../src/ledger/ledger.errors.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// Random sequences of pay-ins, settlements, freezes, transfer outcomes (duplicated and out of order),
// voids and adjustments, run against the real ledger and against a few lines of model: after every
// step the books check out and the merchant's balance is what the model says.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_properties');
});
afterAll(async () => {
  await t?.drop();
});

const SETTLE_TYPES = ['REALTIME', 'D+1', 'D+2', 'D+3'] as const;
const OUTCOMES = ['fail', 'close', 'success', 'return'] as const;

type Op =
  | { op: 'payIn'; order: number; amount: number; fee: number; settleType: (typeof SETTLE_TYPES)[number] }
  | { op: 'payNotSuccess'; order: number }
  | { op: 'settle' }
  | { op: 'freeze'; transfer: number; amount: number; fee: number }
  | { op: 'outcome'; transfer: number; outcome: (typeof OUTCOMES)[number] }
  | { op: 'void'; transfer: number }
  | { op: 'adjust'; ref: number; amount: number }
  | { op: 'replay'; back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc
    .record({
      order: fc.nat(4),
      amount: fc.integer({ min: 1, max: 5_000 }),
      feeRaw: fc.nat(400),
      settleType: fc.constantFrom(...SETTLE_TYPES),
    })
    .map(({ order, amount, feeRaw, settleType }) => ({
      op: 'payIn' as const,
      order,
      amount,
      fee: feeRaw % (amount + 1),
      settleType,
    })),
  fc.record({ op: fc.constant('payNotSuccess' as const), order: fc.nat(4) }),
  fc.constant({ op: 'settle' as const }),
  fc.record({
    op: fc.constant('freeze' as const),
    transfer: fc.nat(4),
    amount: fc.integer({ min: 1, max: 3_000 }),
    fee: fc.nat(50),
  }),
  fc.record({
    op: fc.constant('outcome' as const),
    transfer: fc.nat(4),
    outcome: fc.constantFrom(...OUTCOMES),
  }),
  fc.record({ op: fc.constant('void' as const), transfer: fc.nat(4) }),
  fc.record({
    op: fc.constant('adjust' as const),
    ref: fc.nat(2),
    amount: fc.integer({ min: -3_000, max: 3_000 }).filter((n) => n !== 0),
  }),
  fc.record({ op: fc.constant('replay' as const), back: fc.nat(20) }),
);

interface Model {
  available: number;
  pending: number;
  frozen: number;
  holds: Map<number, { amount: number; fee: number; status: string }>;
  paid: Map<number, { real: number; settled: boolean }>;
  /** Adjustment references used, with their amounts. */
  refs: Map<number, number>;
}

/** What the model expects of the step: its refusal code, if the ledger must refuse it. */
function applyModel(model: Model, op: Exclude<Op, { op: 'replay' }>): LedgerErrorCode | undefined {
  switch (op.op) {
    case 'payIn': {
      if (model.paid.has(op.order)) return undefined;
      const real = op.amount - op.fee;
      const realtime = op.settleType === 'REALTIME';
      if (realtime) model.available += real;
      else model.pending += real;
      model.paid.set(op.order, { real, settled: realtime });
      return undefined;
    }
    case 'payNotSuccess':
      return undefined;
    case 'settle':
      for (const p of model.paid.values()) {
        if (p.settled) continue;
        model.pending -= p.real;
        model.available += p.real;
        p.settled = true;
      }
      return undefined;
    case 'freeze': {
      const hold = model.holds.get(op.transfer);
      if (hold) {
        if (hold.status === 'void') return 'FREEZE_VOIDED';
        return hold.amount === op.amount && hold.fee === op.fee ? undefined : 'KEY_CONFLICT';
      }
      const total = op.amount + op.fee;
      if (model.available < total) return 'INSUFFICIENT_BALANCE';
      model.available -= total;
      model.frozen += total;
      model.holds.set(op.transfer, { amount: op.amount, fee: op.fee, status: 'frozen' });
      return undefined;
    }
    case 'outcome': {
      const hold = model.holds.get(op.transfer);
      if (!hold) return undefined;
      const total = hold.amount + hold.fee;
      if ((op.outcome === 'fail' || op.outcome === 'close') && hold.status === 'frozen') {
        model.frozen -= total;
        model.available += total;
        hold.status = 'released';
      } else if (op.outcome === 'success' && hold.status === 'frozen') {
        model.frozen -= total;
        hold.status = 'out';
      } else if (op.outcome === 'return' && (hold.status === 'frozen' || hold.status === 'out')) {
        if (hold.status === 'frozen') model.frozen -= total;
        model.available += hold.amount;
        hold.status = 'returned';
      }
      return undefined;
    }
    case 'void': {
      const hold = model.holds.get(op.transfer);
      if (!hold) {
        model.holds.set(op.transfer, { amount: 0, fee: 0, status: 'void' });
      } else if (hold.status === 'frozen') {
        model.frozen -= hold.amount + hold.fee;
        model.available += hold.amount + hold.fee;
        hold.status = 'void';
      }
      return undefined;
    }
    case 'adjust':
      if (model.refs.has(op.ref)) return model.refs.get(op.ref) === op.amount ? undefined : 'KEY_CONFLICT';
      if (model.available + op.amount < 0) return 'INSUFFICIENT_BALANCE';
      model.available += op.amount;
      model.refs.set(op.ref, op.amount);
      return undefined;
    default: {
      const unreachable: never = op;
      return unreachable;
    }
  }
}

let run = 0;
let eventSeq = 0;

function transferEvent(mchNo: string, transferNo: string, outcome: (typeof OUTCOMES)[number]): StatusChanged {
  const [from, to] =
    outcome === 'return'
      ? ['success', 'close']
      : outcome === 'success'
        ? ['progress', 'success']
        : ['progress', outcome];
  return {
    kind: 'transfer',
    event_id: `ev${++eventSeq}`,
    mch_no: mchNo,
    order_no: transferNo,
    from_status: from,
    to_status: to,
    occurred_at: new Date().toISOString(),
    version: eventSeq,
    route_id: '',
    upstream_ref: '',
    transfer: { transfer_no: transferNo, biz_transfer_no: '', amount: 0, fee: 0 },
  };
}

/** Runs one step against the ledger; answers the refusal code it met, if any. */
async function applyLedger(
  mchNo: string,
  op: Exclude<Op, { op: 'replay' }>,
): Promise<LedgerErrorCode | undefined> {
  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
      return undefined;
    } catch (err) {
      if (isLedgerError(err)) return err.code;
      throw err;
    }
  };
  const order = (n: number) => `${mchNo}-P${n}`;
  const transfer = (n: number) => `${mchNo}-T${n}`;
  switch (op.op) {
    case 'payIn':
    case 'payNotSuccess': {
      const success = op.op === 'payIn';
      const event: StatusChanged = {
        kind: 'pay',
        event_id: `ev${++eventSeq}`,
        mch_no: mchNo,
        order_no: order(op.order),
        from_status: 'wait',
        to_status: success ? 'success' : 'close',
        occurred_at: new Date().toISOString(),
        version: eventSeq,
        route_id: '',
        upstream_ref: '',
        pay_order: {
          order_no: order(op.order),
          biz_order_no: `B${op.order}`,
          amount: success ? op.amount : 100,
          fee: success ? op.fee : 0,
          real_amount: success ? op.amount - op.fee : 100,
          settle_type: success ? op.settleType : 'D+1',
          pay_time: new Date().toISOString(),
          route_id: '',
        },
      };
      await bookEvent({ ledger: t.ledger }, event);
      return undefined;
    }
    case 'settle':
      await t.settlement.settleDue(new Date(Date.now() + 30 * 24 * 3_600_000));
      return undefined;
    case 'freeze':
      return refusal(() =>
        t.ledger.freeze({
          mchNo,
          transferNo: transfer(op.transfer),
          bizTransferNo: '',
          amount: op.amount,
          fee: op.fee,
        }),
      );
    case 'outcome':
      await bookEvent({ ledger: t.ledger }, transferEvent(mchNo, transfer(op.transfer), op.outcome));
      return undefined;
    case 'void':
      await t.ledger.voidFreeze(mchNo, transfer(op.transfer));
      return undefined;
    case 'adjust':
      return refusal(() =>
        t.ledger.adjust({ mchNo, amount: op.amount, reason: 'test', reference: `ref${op.ref}` }),
      );
    default: {
      const unreachable: never = op;
      return unreachable;
    }
  }
}

describe('ledger properties', () => {
  it('after every step of a random sequence the books check out and the balance is what the sequence implies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const mchNo = `PR${++run}`;
        const model: Model = {
          available: 0,
          pending: 0,
          frozen: 0,
          holds: new Map(),
          paid: new Map(),
          refs: new Map(),
        };
        const done: Exclude<Op, { op: 'replay' }>[] = [];
        for (const raw of ops) {
          // A replay is a duplicate delivery or retry of an earlier step.
          const op =
            raw.op === 'replay' ? done[done.length - 1 - (raw.back % Math.max(1, done.length))] : raw;
          if (!op) continue;
          done.push(op);
          const expected = applyModel(model, op);
          const refused = await applyLedger(mchNo, op);
          expect(refused, JSON.stringify(op)).toBe(expected);
          expect(await t.ledger.balance(mchNo), JSON.stringify(op)).toEqual({
            available: model.available,
            pending: model.pending,
            frozen: model.frozen,
          });
          const report = await checkLedger(t.db);
          expect(report.problems, JSON.stringify(op)).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
