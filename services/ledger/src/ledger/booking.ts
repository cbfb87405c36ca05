import { PAYOUT_LIMIT_NAMES, type PayoutLimits, type SettleType } from '@agentpay/api';
import {
  ADJUSTMENTS,
  clearingAccount,
  FEE_REVENUE,
  merchantAccount,
  PARTS,
  type Part,
  unmatchedAccount,
} from './accounts.js';
import { LedgerError } from './ledger.errors.js';
import { passedLimit, type Usage, type UsageChange, usageKey } from './payout-usage.js';

// What the ledger can be asked to book, and the pure decision of what each booking writes given the
// locked state. The repository (ledger.repository.ts) loads that state and writes the plans; nothing
// here touches the database, so the rules read in one place and are tested without it.

export type Command =
  | {
      type: 'pay_in';
      mchNo: string;
      orderNo: string;
      bizOrderNo: string;
      amount: number;
      fee: number;
      realAmount: number;
      settleType: SettleType;
      payTime: Date;
      dueAt: Date;
      routeId?: string;
      /** The cause's W3C traceparent (the status change), carried onto the OrderSettled event. */
      traceparent?: string;
    }
  /** `traceparent`: the sweep run's, carried onto the OrderSettled event. */
  | { type: 'settle'; mchNo: string; orderNo: string; traceparent?: string }
  | {
      type: 'freeze';
      mchNo: string;
      transferNo: string;
      bizTransferNo: string;
      amount: number;
      fee: number;
      /** The merchant's payout limits in effect (CONTRACT section 19); absent: none. */
      limits?: PayoutLimits;
    }
  | { type: 'unfreeze'; mchNo: string; transferNo: string }
  | { type: 'void_freeze'; mchNo: string; transferNo: string }
  | { type: 'transfer_out'; mchNo: string; transferNo: string }
  | { type: 'transfer_return'; mchNo: string; transferNo: string }
  | { type: 'adjust'; mchNo: string; amount: number; reason: string; reference: string }
  /** An unmatched deposit credited to a merchant (an `adjust` record citing the discrepancy). */
  | {
      type: 'credit';
      mchNo: string;
      discrepancyId: string;
      routeId: string;
      orderNo: string;
      amount: number;
      reason: string;
    };

/** The idempotency key of a command, derived from its cause. */
export function keyOf(command: Command): string {
  switch (command.type) {
    case 'pay_in':
    case 'settle':
      return `${command.type}:${command.orderNo}`;
    case 'freeze':
    case 'unfreeze':
    case 'void_freeze':
    case 'transfer_out':
    case 'transfer_return':
      return `${command.type}:${command.transferNo}`;
    case 'adjust':
      return `adjust:${command.mchNo}:${command.reference}`;
    case 'credit':
      return `credit:${command.discrepancyId}`;
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The platform accounts a command may move, besides its merchant's three parts. */
export function platformAccountsOf(command: Command): string[] {
  switch (command.type) {
    case 'pay_in':
      return [clearingAccount(command.routeId), FEE_REVENUE];
    case 'transfer_out':
      return [clearingAccount(undefined), FEE_REVENUE];
    case 'transfer_return':
      return [clearingAccount(undefined)];
    case 'adjust':
      return [ADJUSTMENTS];
    case 'credit':
      return [unmatchedAccount(command.routeId)];
    case 'settle':
    case 'freeze':
    case 'unfreeze':
    case 'void_freeze':
      return [];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Where a transfer's hold stands; `void`: released by VoidFreeze, or a tombstone refusing a late freeze. */
export const HOLD_STATUSES = ['frozen', 'released', 'out', 'returned', 'void'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export interface HoldState {
  mchNo: string;
  bizTransferNo: string;
  amount: number;
  fee: number;
  status: HoldStatus;
  /** The Mexico City day (yyyy-MM-dd) whose payout usage this hold counts in; null: counted nowhere. */
  usageDay: string | null;
}

export interface PayInState {
  mchNo: string;
  bizOrderNo: string;
  realAmount: number;
  settleType: SettleType;
  settledAt: Date | null;
}

/** The entries that move a merchant's parts (the commands above); `credit` books an `adjust`. */
export const MERCHANT_ENTRY_TYPES = [
  'pay_in',
  'settle',
  'transfer_freeze',
  'transfer_unfreeze',
  'transfer_out',
  'transfer_return',
  'adjust',
] as const;
export type MerchantEntryType = (typeof MERCHANT_ENTRY_TYPES)[number];

/** The entries of channel money no order owns, with no merchant (reconciliation/platform-entries.ts). */
export const PLATFORM_ENTRY_TYPES = [
  'unmatched_in',
  'unmatched_return',
  'unmatched_return_reversal',
] as const;
export type PlatformEntryType = (typeof PLATFORM_ENTRY_TYPES)[number];

/** Every entry type (entries_type_check). */
export const ENTRY_TYPES = [...MERCHANT_ENTRY_TYPES, ...PLATFORM_ENTRY_TYPES] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** What an entry being booked records besides its postings and snapshot. */
export interface EntryDraft {
  key: string;
  type: MerchantEntryType;
  mchNo: string;
  orderNo: string | null;
  bizOrderNo: string | null;
  transferNo: string | null;
  bizTransferNo: string | null;
  amount: number;
  fee: number;
  remark: string;
}

export interface Movement {
  account: string;
  amount: number;
}

declare const balancedBrand: unique symbol;

/** Movements whose amounts sum to zero: only `balanced()` makes one, and only these are written. */
export type Balanced = readonly Movement[] & { readonly [balancedBrand]: true };

/** Thrown, before anything is written, for an entry whose postings do not sum to zero: a bug, never a refusal. */
export class UnbalancedEntryError extends Error {
  override name = 'UnbalancedEntryError';
}

/**
 * The movements of entry `key` as a balanced set: each amount a safe integer and their sum zero, or it
 * throws. The ledger holds "every entry sums to zero" by this check, not by trusting its inputs.
 */
export function balanced(key: string, movements: readonly Movement[]): Balanced {
  // Summed exactly: safe integers may add up past 2^53, where a float sum could round to a false zero.
  let sum = 0n;
  for (const mv of movements) {
    if (!Number.isSafeInteger(mv.amount)) {
      throw new UnbalancedEntryError(`entry ${key}: ${mv.account} moves ${mv.amount}, not whole centavos`);
    }
    sum += BigInt(mv.amount);
  }
  if (sum !== 0n) throw new UnbalancedEntryError(`entry ${key}: postings sum to ${sum}, not 0`);
  return movements as Balanced;
}

export type Plan =
  | {
      kind: 'book';
      entry: EntryDraft;
      movements: Movement[];
      hold?: { transferNo: string; state: HoldState };
      /** A payout counted (a freeze) or given back (a freeze released before the payout left). */
      usage?: UsageChange;
      payIn?: { orderNo: string; state: PayInState };
      /** The pay-in is settled by this entry (REALTIME or a settlement): announce it. */
      settled?: { orderNo: string; settleType: SettleType; settleTime: Date; realAmount: number };
    }
  /** The key was booked before: the existing entry answers. */
  | { kind: 'existing'; key: string; conflict?: string }
  | { kind: 'refuse'; error: LedgerError }
  /** Nothing to book; `hold` is still written (a VoidFreeze tombstone). */
  | { kind: 'skip'; reason: string; holdStatus?: string; hold?: { transferNo: string; state: HoldState } };

export interface PlanState {
  balances: ReadonlyMap<string, number>;
  holds: ReadonlyMap<string, HoldState>;
  payIns: ReadonlyMap<string, PayInState>;
  /** Payout usage by `usageKey`, for the periods this batch may count in; absent is zero. */
  usage: ReadonlyMap<string, Usage>;
  /** The booking's Mexico City day (yyyy-MM-dd): where a freeze counts its payout. */
  today: string;
  /** Keys booked before or earlier in this batch, with the figures a repeat must match. */
  booked: ReadonlyMap<string, { amount: number; fee: number }>;
  /** The booking's clock: a settlement's settle time. */
  now: Date;
}

const m = (mchNo: string, part: Part) => merchantAccount(mchNo, part);

function transferEntry(
  command: { mchNo: string; transferNo: string },
  hold: HoldState,
  type: EntryDraft['type'],
  key: string,
): EntryDraft {
  return {
    key,
    type,
    mchNo: command.mchNo,
    orderNo: null,
    bizOrderNo: null,
    transferNo: command.transferNo,
    bizTransferNo: hold.bizTransferNo,
    amount: hold.amount,
    fee: hold.fee,
    remark: '',
  };
}

/** Decides what `command` books given the locked state; pure. */
export function plan(command: Command, state: PlanState): Plan {
  const key = keyOf(command);
  const previous = state.booked.get(key);
  switch (command.type) {
    case 'pay_in': {
      if (previous) return { kind: 'existing', key };
      // A pay-in whose fee took all of it has nothing to settle later: it is settled at once, like REALTIME.
      const realtime = command.settleType === 'REALTIME' || command.realAmount === 0;
      return {
        kind: 'book',
        entry: {
          key,
          type: 'pay_in',
          mchNo: command.mchNo,
          orderNo: command.orderNo,
          bizOrderNo: command.bizOrderNo,
          transferNo: null,
          bizTransferNo: null,
          amount: command.amount,
          fee: command.fee,
          remark: '',
        },
        movements: [
          { account: clearingAccount(command.routeId), amount: -command.amount },
          { account: m(command.mchNo, realtime ? 'available' : 'pending'), amount: command.realAmount },
          { account: FEE_REVENUE, amount: command.fee },
        ],
        payIn: {
          orderNo: command.orderNo,
          state: {
            mchNo: command.mchNo,
            bizOrderNo: command.bizOrderNo,
            realAmount: command.realAmount,
            settleType: command.settleType,
            settledAt: realtime ? command.payTime : null,
          },
        },
        ...(realtime && {
          settled: {
            orderNo: command.orderNo,
            settleType: command.settleType,
            settleTime: command.payTime,
            realAmount: command.realAmount,
          },
        }),
      };
    }
    case 'settle': {
      if (previous) return { kind: 'existing', key };
      const payIn = state.payIns.get(command.orderNo);
      if (!payIn) return { kind: 'skip', reason: 'no pay-in for this order' };
      if (payIn.settledAt) return { kind: 'skip', reason: 'settled at pay time' };
      return {
        kind: 'book',
        entry: {
          key,
          type: 'settle',
          mchNo: payIn.mchNo,
          orderNo: command.orderNo,
          bizOrderNo: payIn.bizOrderNo,
          transferNo: null,
          bizTransferNo: null,
          amount: payIn.realAmount,
          fee: 0,
          remark: '',
        },
        movements: [
          { account: m(payIn.mchNo, 'pending'), amount: -payIn.realAmount },
          { account: m(payIn.mchNo, 'available'), amount: payIn.realAmount },
        ],
        payIn: { orderNo: command.orderNo, state: { ...payIn, settledAt: state.now } },
        settled: {
          orderNo: command.orderNo,
          settleType: payIn.settleType,
          settleTime: state.now,
          realAmount: payIn.realAmount,
        },
      };
    }
    case 'freeze': {
      const hold = state.holds.get(command.transferNo);
      if (hold?.status === 'void') return { kind: 'refuse', error: new LedgerError('FREEZE_VOIDED') };
      if (previous || hold) {
        const same = hold
          ? hold.amount === command.amount && hold.fee === command.fee
          : previous?.amount === command.amount && previous.fee === command.fee;
        return same
          ? { kind: 'existing', key }
          : {
              kind: 'existing',
              key,
              conflict: `transfer ${command.transferNo} was frozen with other figures`,
            };
      }
      // Limits first: a control refuses whatever the balance, and says which limit.
      if (command.limits) {
        const zero = { amount: 0, count: 0 };
        const day = state.usage.get(usageKey(command.mchNo, state.today)) ?? zero;
        const month = state.usage.get(usageKey(command.mchNo, state.today.slice(0, 7))) ?? zero;
        const passed = passedLimit(command.limits, command.amount, day, month);
        if (passed)
          return { kind: 'refuse', error: new LedgerError('LIMIT_EXCEEDED', PAYOUT_LIMIT_NAMES[passed]) };
      }
      const total = command.amount + command.fee;
      const available = state.balances.get(m(command.mchNo, 'available')) ?? 0;
      if (available < total) {
        return {
          kind: 'refuse',
          error: new LedgerError('INSUFFICIENT_BALANCE', `available ${available} < ${total}`),
        };
      }
      const holdState: HoldState = {
        mchNo: command.mchNo,
        bizTransferNo: command.bizTransferNo,
        amount: command.amount,
        fee: command.fee,
        status: 'frozen',
        usageDay: state.today,
      };
      return {
        kind: 'book',
        entry: transferEntry(command, holdState, 'transfer_freeze', key),
        movements: [
          { account: m(command.mchNo, 'available'), amount: -total },
          { account: m(command.mchNo, 'frozen'), amount: total },
        ],
        hold: { transferNo: command.transferNo, state: holdState },
        usage: { mchNo: command.mchNo, day: state.today, amount: command.amount, count: 1 },
      };
    }
    case 'unfreeze':
    case 'void_freeze': {
      if (previous) return { kind: 'existing', key };
      const hold = state.holds.get(command.transferNo);
      if (!hold) {
        if (command.type === 'unfreeze') return { kind: 'skip', reason: 'no freeze for this transfer' };
        return {
          kind: 'skip',
          reason: 'tombstone: no freeze yet',
          holdStatus: 'void',
          hold: {
            transferNo: command.transferNo,
            state: {
              mchNo: command.mchNo,
              bizTransferNo: '',
              amount: 0,
              fee: 0,
              status: 'void',
              usageDay: null,
            },
          },
        };
      }
      if (hold.status !== 'frozen') {
        return { kind: 'skip', reason: `the freeze is ${hold.status} already`, holdStatus: hold.status };
      }
      const total = hold.amount + hold.fee;
      return {
        kind: 'book',
        entry: transferEntry(command, hold, 'transfer_unfreeze', key),
        movements: [
          { account: m(hold.mchNo, 'frozen'), amount: -total },
          { account: m(hold.mchNo, 'available'), amount: total },
        ],
        hold: {
          transferNo: command.transferNo,
          state: { ...hold, status: command.type === 'void_freeze' ? 'void' : 'released' },
        },
        // The payout never left: its usage is given back to the day that counted it.
        ...(hold.usageDay && {
          usage: { mchNo: hold.mchNo, day: hold.usageDay, amount: -hold.amount, count: -1 },
        }),
      };
    }
    case 'transfer_out': {
      if (previous) return { kind: 'existing', key };
      const hold = state.holds.get(command.transferNo);
      if (!hold) return { kind: 'skip', reason: 'no freeze for this transfer' };
      if (hold.status !== 'frozen') {
        return { kind: 'skip', reason: `the freeze is ${hold.status}`, holdStatus: hold.status };
      }
      return {
        kind: 'book',
        entry: transferEntry(command, hold, 'transfer_out', key),
        movements: [
          { account: m(hold.mchNo, 'frozen'), amount: -(hold.amount + hold.fee) },
          { account: clearingAccount(undefined), amount: hold.amount },
          { account: FEE_REVENUE, amount: hold.fee },
        ],
        hold: { transferNo: command.transferNo, state: { ...hold, status: 'out' } },
      };
    }
    case 'transfer_return': {
      if (previous) return { kind: 'existing', key };
      const hold = state.holds.get(command.transferNo);
      if (!hold) return { kind: 'skip', reason: 'no freeze for this transfer' };
      if (hold.status !== 'out') {
        return { kind: 'skip', reason: `the transfer is ${hold.status}, not out`, holdStatus: hold.status };
      }
      return {
        kind: 'book',
        entry: transferEntry(command, hold, 'transfer_return', key),
        movements: [
          { account: clearingAccount(undefined), amount: -hold.amount },
          { account: m(hold.mchNo, 'available'), amount: hold.amount },
        ],
        hold: { transferNo: command.transferNo, state: { ...hold, status: 'returned' } },
      };
    }
    case 'adjust': {
      if (previous) {
        return previous.amount === command.amount
          ? { kind: 'existing', key }
          : { kind: 'existing', key, conflict: `reference ${command.reference} was used for another amount` };
      }
      const available = state.balances.get(m(command.mchNo, 'available')) ?? 0;
      if (available + command.amount < 0) {
        return {
          kind: 'refuse',
          error: new LedgerError('INSUFFICIENT_BALANCE', `available ${available} < ${-command.amount}`),
        };
      }
      return {
        kind: 'book',
        entry: {
          key,
          type: 'adjust',
          mchNo: command.mchNo,
          orderNo: null,
          bizOrderNo: null,
          transferNo: null,
          bizTransferNo: null,
          amount: command.amount,
          fee: 0,
          remark: command.reason,
        },
        movements: [
          { account: m(command.mchNo, 'available'), amount: command.amount },
          { account: ADJUSTMENTS, amount: -command.amount },
        ],
      };
    }
    case 'credit': {
      if (previous) {
        return previous.amount === command.amount
          ? { kind: 'existing', key }
          : {
              kind: 'existing',
              key,
              conflict: `discrepancy ${command.discrepancyId} was credited another amount`,
            };
      }
      return {
        kind: 'book',
        entry: {
          key,
          type: 'adjust',
          mchNo: command.mchNo,
          orderNo: command.orderNo || null,
          bizOrderNo: null,
          transferNo: null,
          bizTransferNo: null,
          amount: command.amount,
          fee: 0,
          remark: `discrepancy ${command.discrepancyId}: ${command.reason}`,
        },
        movements: [
          { account: m(command.mchNo, 'available'), amount: command.amount },
          { account: unmatchedAccount(command.routeId), amount: -command.amount },
        ],
      };
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The merchant's three parts a list of movements changes (0 where untouched). */
export function merchantChanges(mchNo: string, movements: readonly Movement[]): Record<Part, number> {
  const changes = { available: 0, pending: 0, frozen: 0 };
  for (const part of PARTS) {
    const account = m(mchNo, part);
    for (const mv of movements) if (mv.account === account) changes[part] += mv.amount;
  }
  return changes;
}
