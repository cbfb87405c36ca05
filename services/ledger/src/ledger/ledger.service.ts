import { isSettleType, type PayoutLimits } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { type Clock, systemClock } from '@agentpay/runtime';
import type { Registry } from '@agentpay/telemetry';
import { formatWireTime } from '@agentpay/wire';
import type { Kysely, Transaction } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';
import type { SettlementCalendar } from '../settlement/calendar.js';
import { createMerchantBatcher, type MerchantBatcher } from './batcher.js';
import { type Command, keyOf } from './booking.js';
import { LedgerError } from './ledger.errors.js';
import { instrumentBookings } from './ledger.metrics.js';
import { balanceOf, bookBatch, type Outcome } from './ledger.repository.js';
import { type Usage, usageOf } from './payout-usage.js';
import { retryConflicts } from './retry.js';

export interface LedgerServiceDeps {
  db: Kysely<Database>;
  logger: Logger;
  calendar: SettlementCalendar;
  /** `${EVENTS_SUBJECT_PREFIX}.ledger.order_settled` */
  settledSubject: string;
  /** Most commands of one merchant booked in one transaction. */
  maxBatch: number;
  /** Where the booking metrics go (ledger.metrics.ts); none in tests. */
  registry?: Registry;
  /** Where "now" comes from (tests move it); the system clock by default. */
  clock?: Clock;
  /** The zone of the days and months payout usage counts in; America/Mexico_City by default. */
  timeZone?: string;
}

export interface PayInInput {
  mchNo: string;
  orderNo: string;
  bizOrderNo: string;
  amount: number;
  fee: number;
  realAmount: number;
  settleType: string;
  payTime: Date;
  routeId?: string;
  /** The cause's W3C traceparent, carried onto the OrderSettled event of a REALTIME pay-in. */
  traceparent?: string;
}

export interface FreezeInput {
  mchNo: string;
  transferNo: string;
  bizTransferNo: string;
  amount: number;
  fee: number;
  /** The merchant's payout limits in effect; absent: none (the payout is still counted). */
  limits?: PayoutLimits;
}

/** A batch payout's freezes (CONTRACT section 21): every item of one merchant, booked as one. */
export interface FreezeBatchInput {
  mchNo: string;
  items: readonly { transferNo: string; bizTransferNo: string; amount: number; fee: number }[];
  /** The merchant's payout limits in effect; absent: none (every item is still counted). */
  limits?: PayoutLimits;
}

export interface AdjustInput {
  mchNo: string;
  amount: number;
  reason: string;
  reference: string;
  /** Who asked (and the approval carried out), recorded beside the entry in its transaction. */
  origin?: BookingOrigin | undefined;
}

/** The operator behind a booking, as the gateway passed them (x-agentpay-actor, x-agentpay-approval). */
export interface BookingOrigin {
  actorId: string;
  actorLabel: string;
  approvalId: string;
}

/**
 * Records who made the booking of `key` (in the booking's transaction): only when the entry exists, and only
 * the first time, so a refused booking names no one and a repeat keeps the person who made it.
 */
export async function recordOrigin(
  trx: Transaction<Database>,
  key: string,
  origin: BookingOrigin,
): Promise<void> {
  await trx
    .insertInto('entry_origins')
    .columns(['entry_key', 'actor_id', 'actor_label', 'approval_id'])
    .expression((eb) =>
      eb
        .selectFrom('entries')
        .select([
          'key',
          eb.val(origin.actorId).as('actor_id'),
          eb.val(origin.actorLabel).as('actor_label'),
          eb.val(origin.approvalId).as('approval_id'),
        ])
        .where('key', '=', key),
    )
    .onConflict((oc) => oc.column('entry_key').doNothing())
    .execute();
}

/** More writes in a booking's transaction; run after the bookings, so inside their locks. */
export type AlsoInTransaction = (trx: Transaction<Database>) => Promise<void>;

/** An entry a use case booked now (`created`) or before (a repeat of its key). */
export interface Booked {
  entry: EntryRow;
  created: boolean;
}

export interface LedgerService {
  /** The pay-in command for `input`, validated and with its due time; throws INVALID_REQUEST. */
  payInCommand(input: PayInInput): Command;
  payIn(input: PayInInput): Promise<Outcome>;
  freeze(input: FreezeInput): Promise<Booked>;
  /**
   * Freezes every item of a batch in one transaction, or none: the first refusal (a limit, the balance)
   * rolls the whole batch back and is thrown. Answers how many items this call froze (0 for a repeat).
   */
  freezeBatch(input: FreezeBatchInput): Promise<{ created: number }>;
  unfreeze(mchNo: string, transferNo: string): Promise<Outcome>;
  voidFreeze(mchNo: string, transferNo: string): Promise<{ released: boolean; holdStatus: string }>;
  transferOut(mchNo: string, transferNo: string): Promise<Outcome>;
  transferReturn(mchNo: string, transferNo: string): Promise<Outcome>;
  adjust(input: AdjustInput): Promise<Booked>;
  /**
   * Books commands of any merchants in one transaction, in order (the sweep, a batch of events); `also`
   * writes what must commit with them (the facts the events state) in that same transaction.
   */
  bookNow(commands: readonly Command[], also?: AlsoInTransaction): Promise<Outcome[]>;
  balance(mchNo: string): Promise<{ available: number; pending: number; frozen: number }>;
  /** A merchant's payout usage today and this month (Mexico City), as the limits count it. */
  usage(mchNo: string): Promise<{ day: string; month: string; dayUsage: Usage; monthUsage: Usage }>;
  /** Waits for every queued booking (shutdown). */
  drain(): Promise<void>;
}

function invalid(detail: string): LedgerError {
  return new LedgerError('INVALID_REQUEST', detail);
}

function requireText(value: string, field: string): void {
  if (!value) throw invalid(`${field} is required`);
}

function requireCentavos(value: number, field: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw invalid(`${field} must be an integer >= ${min}`);
}

/** The entry an outcome answers with, or the typed error it carries. */
function entryOf(outcome: Outcome): Booked {
  switch (outcome.kind) {
    case 'booked':
      return { entry: outcome.entry, created: outcome.created };
    case 'refused':
      throw outcome.error;
    case 'skipped':
      throw new Error(`nothing was booked: ${outcome.reason}`);
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

/** The ledger's use cases; each books in one transaction, idempotently by its key. */
export function createLedgerService(deps: LedgerServiceDeps): LedgerService {
  const { db, calendar } = deps;
  const timeZone = deps.timeZone ?? 'America/Mexico_City';
  const clock = deps.clock ?? systemClock;

  const bookInTransaction = (commands: readonly Command[], also?: AlsoInTransaction) =>
    retryConflicts(() =>
      db.transaction().execute(async (trx) => {
        const outcomes =
          commands.length === 0
            ? []
            : await bookBatch(trx, commands, {
                settledSubject: deps.settledSubject,
                now: clock.now(),
                timeZone,
              });
        if (also) await also(trx);
        return outcomes;
      }),
    );
  const bookNow = deps.registry ? instrumentBookings(bookInTransaction, deps.registry) : bookInTransaction;
  const batcher: MerchantBatcher = createMerchantBatcher(bookNow, deps.maxBatch);

  const transferCommand = (
    type: 'unfreeze' | 'void_freeze' | 'transfer_out' | 'transfer_return',
    mchNo: string,
    transferNo: string,
  ) => {
    requireText(mchNo, 'mch_no');
    requireText(transferNo, 'transfer_no');
    return batcher.submit({ type, mchNo, transferNo });
  };

  const payInCommand = (input: PayInInput): Command => {
    requireText(input.mchNo, 'mch_no');
    requireText(input.orderNo, 'order_no');
    requireCentavos(input.amount, 'amount', 1);
    requireCentavos(input.fee, 'fee', 0);
    requireCentavos(input.realAmount, 'real_amount', 0);
    if (input.realAmount + input.fee !== input.amount) throw invalid('real_amount + fee must equal amount');
    if (!isSettleType(input.settleType)) throw invalid(`unknown settle_type ${input.settleType}`);
    if (Number.isNaN(input.payTime.getTime())) throw invalid('pay_time is not an instant');
    return {
      type: 'pay_in',
      mchNo: input.mchNo,
      orderNo: input.orderNo,
      bizOrderNo: input.bizOrderNo,
      amount: input.amount,
      fee: input.fee,
      realAmount: input.realAmount,
      settleType: input.settleType,
      payTime: input.payTime,
      dueAt: calendar.dueAt(input.payTime, input.settleType),
      ...(input.routeId && { routeId: input.routeId }),
      ...(input.traceparent && { traceparent: input.traceparent }),
    };
  };

  const requireLimits = (limits: PayoutLimits | undefined) => {
    if (!limits) return;
    for (const [name, value] of Object.entries(limits)) {
      if (value !== null) requireCentavos(value, `limits.${name}`, 0);
    }
  };

  return {
    payInCommand,
    payIn: (input) => batcher.submit(payInCommand(input)),
    async freeze(input) {
      requireText(input.mchNo, 'mch_no');
      requireText(input.transferNo, 'transfer_no');
      requireCentavos(input.amount, 'amount', 1);
      requireCentavos(input.fee, 'fee', 0);
      requireLimits(input.limits);
      return entryOf(await batcher.submit({ type: 'freeze', ...input }));
    },
    async freezeBatch(input) {
      requireText(input.mchNo, 'mch_no');
      if (input.items.length === 0) throw invalid('items: at least one is required');
      requireLimits(input.limits);
      const seen = new Set<string>();
      const commands: Command[] = input.items.map((item, i) => {
        requireText(item.transferNo, `items[${i}].transfer_no`);
        if (seen.has(item.transferNo)) throw invalid(`items[${i}].transfer_no: repeated`);
        seen.add(item.transferNo);
        requireCentavos(item.amount, `items[${i}].amount`, 1);
        requireCentavos(item.fee, `items[${i}].fee`, 0);
        return {
          type: 'freeze',
          mchNo: input.mchNo,
          transferNo: item.transferNo,
          bizTransferNo: item.bizTransferNo,
          amount: item.amount,
          fee: item.fee,
          ...(input.limits && { limits: input.limits }),
        };
      });
      // Not through the merchant batcher: these commands must commit or roll back together, so they get a
      // transaction of their own. Each sees the balance and usage the items before it left (bookBatch).
      return retryConflicts(() =>
        db.transaction().execute(async (trx) => {
          const outcomes = await bookBatch(trx, commands, {
            settledSubject: deps.settledSubject,
            now: clock.now(),
            timeZone,
          });
          let created = 0;
          for (const outcome of outcomes) {
            // Throwing rolls back every freeze this transaction booked.
            const { created: booked } = entryOf(outcome);
            if (booked) created++;
          }
          return { created };
        }),
      );
    },
    unfreeze: (mchNo, transferNo) => transferCommand('unfreeze', mchNo, transferNo),
    async voidFreeze(mchNo, transferNo) {
      const outcome = await transferCommand('void_freeze', mchNo, transferNo);
      switch (outcome.kind) {
        case 'booked':
          return { released: true, holdStatus: 'void' };
        case 'skipped':
          return { released: false, holdStatus: outcome.holdStatus ?? 'void' };
        case 'refused':
          throw outcome.error;
        default: {
          const unreachable: never = outcome;
          return unreachable;
        }
      }
    },
    transferOut: (mchNo, transferNo) => transferCommand('transfer_out', mchNo, transferNo),
    transferReturn: (mchNo, transferNo) => transferCommand('transfer_return', mchNo, transferNo),
    async adjust(input) {
      requireText(input.mchNo, 'mch_no');
      if (!input.reference || input.reference.length > 100)
        throw invalid('reference must be 1..100 characters');
      if (!Number.isSafeInteger(input.amount) || input.amount === 0) {
        throw invalid('amount must be a non-zero integer');
      }
      const { origin, ...rest } = input;
      const command: Command = { type: 'adjust', ...rest };
      if (!origin) return entryOf(await batcher.submit(command));
      // Operators' adjustments are rare: booked on their own, with who asked in the same transaction.
      const [outcome] = await bookNow([command], (trx) => recordOrigin(trx, keyOf(command), origin));
      if (!outcome) throw new Error('an adjustment booked no outcome');
      return entryOf(outcome);
    },
    bookNow,
    balance: (mchNo) => balanceOf(db, mchNo),
    async usage(mchNo) {
      requireText(mchNo, 'mch_no');
      const day = formatWireTime(clock.now(), timeZone).slice(0, 10);
      const { day: dayUsage, month: monthUsage } = await usageOf(db, mchNo, day);
      return { day, month: day.slice(0, 7), dayUsage, monthUsage };
    },
    drain: () => batcher.idle(),
  };
}
