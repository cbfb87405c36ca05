import { randomUUID } from 'node:crypto';
import { enqueueEvents, type PlatformEvent } from '@agentpay/messaging';
import { traceparentOr } from '@agentpay/proto';
import { formatWireTime } from '@agentpay/wire';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';
import { accountRow, merchantAccount, PARTS } from './accounts.js';
import {
  type Balanced,
  balanced,
  type Command,
  type HoldState,
  keyOf,
  merchantChanges,
  type PayInState,
  plan,
  platformAccountsOf,
} from './booking.js';
import { LedgerError } from './ledger.errors.js';
import { applyUsage, loadUsage, type UsageChange, writeUsage } from './payout-usage.js';

/** What became of one command of a batch. */
export type Outcome =
  | { kind: 'booked'; entry: EntryRow; created: boolean }
  | { kind: 'refused'; error: LedgerError }
  | { kind: 'skipped'; reason: string; holdStatus?: string };

export interface BookOptions {
  /** Subject of the OrderSettled events (`<prefix>.ledger.order_settled`). */
  settledSubject: string;
  now: Date;
  /** The zone of the calendar days and months payout usage counts in (America/Mexico_City). */
  timeZone: string;
}

/**
 * Locks the accounts in id order (every booking does, so two bookings never wait on each other in a
 * cycle), creating the missing ones, and answers their balances.
 */
export async function lockAccounts(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const lock = (wanted: readonly string[]) =>
    trx
      .selectFrom('accounts')
      .select(['id', 'balance'])
      .where('id', '=', sql<string>`any(${sql.val(wanted)}::text[])`)
      .orderBy('id')
      .forUpdate()
      .execute();
  const balances = new Map((await lock(ids)).map((r) => [r.id, r.balance]));
  const missing = ids.filter((id) => !balances.has(id));
  if (missing.length > 0) {
    await trx
      .insertInto('accounts')
      .values(missing.map(accountRow))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    for (const r of await lock(missing)) balances.set(r.id, r.balance);
  }
  return balances;
}

/** An entry about to be written; its postings come from a `Balanced` set, so they sum to zero. */
interface PlannedEntry {
  row: Omit<EntryRow, 'id' | 'created_at'>;
  postings: { account: string; amount: number; balance_after: number }[];
}

/** The postings of a balanced set of movements, each with the balance it leaves (updated in `balances`). */
function postingsOf(movements: Balanced, balances: Map<string, number>): PlannedEntry['postings'] {
  return movements.map((mv) => {
    const after = (balances.get(mv.account) ?? 0) + mv.amount;
    balances.set(mv.account, after);
    return { account: mv.account, amount: mv.amount, balance_after: after };
  });
}

/** The OrderSettled event (proto agentpay.events.v1.OrderSettled) of a settlement. */
interface OrderSettledEvent extends PlatformEvent {
  mch_no: string;
  order_no: string;
  biz_order_no: string;
  settle_type: string;
  settle_time: string;
  real_amount: string;
}

/**
 * Books a batch of commands in the caller's transaction, in order: each sees the balances the ones
 * before it left. An overdraft is refused against the balances read under the row locks, so no other
 * transaction can change them before this one commits. A refused or skipped command writes nothing
 * (but a VoidFreeze tombstone); a repeated key answers the entry it booked before. An entry whose
 * postings would not sum to zero throws (`balanced`) before anything of the batch is written.
 */
export async function bookBatch(
  trx: Transaction<Database>,
  commands: readonly Command[],
  opts: BookOptions,
): Promise<Outcome[]> {
  const mchNos = [...new Set(commands.map((c) => c.mchNo))];
  const accountIds = [
    ...new Set([
      ...mchNos.flatMap((mchNo) => PARTS.map((part) => merchantAccount(mchNo, part))),
      ...commands.flatMap(platformAccountsOf),
    ]),
  ].sort();
  const balances = await lockAccounts(trx, accountIds);

  const keys = commands.map(keyOf);
  const transferNos = [...new Set(commands.flatMap((c) => ('transferNo' in c ? [c.transferNo] : [])))];
  const orderNos = [
    ...new Set(commands.flatMap((c) => (c.type === 'settle' || c.type === 'pay_in' ? [c.orderNo] : []))),
  ];
  const [existingEntries, holdRows, payInRows] = await Promise.all([
    trx
      .selectFrom('entries')
      .selectAll()
      .where('key', '=', sql<string>`any(${sql.val(keys)}::text[])`)
      .execute(),
    transferNos.length === 0
      ? []
      : trx
          .selectFrom('holds')
          .selectAll()
          .where('transfer_no', '=', sql<string>`any(${sql.val(transferNos)}::text[])`)
          .execute(),
    orderNos.length === 0
      ? []
      : trx.selectFrom('pay_ins').selectAll().where('order_no', 'in', orderNos).execute(),
  ]);

  const entriesByKey = new Map<string, EntryRow>(existingEntries.map((e) => [e.key, e]));
  const booked = new Map(existingEntries.map((e) => [e.key, { amount: e.amount, fee: e.fee }]));
  const holds = new Map<string, HoldState>(
    holdRows.map((h) => [
      h.transfer_no,
      {
        mchNo: h.mch_no,
        bizTransferNo: h.biz_transfer_no,
        amount: h.amount,
        fee: h.fee,
        status: h.status,
        usageDay: h.usage_day,
      },
    ]),
  );
  // Read under the merchants' account locks taken above: every booking that changes a merchant's usage
  // holds them, so what is read here stays true until this transaction commits.
  const today = formatWireTime(opts.now, opts.timeZone).slice(0, 10);
  const usage = await loadUsage(trx, commands, today, holdRows);
  const payIns = new Map<string, PayInState>(
    payInRows.map((p) => [
      p.order_no,
      {
        mchNo: p.mch_no,
        bizOrderNo: p.biz_order_no,
        realAmount: p.real_amount,
        settleType: p.settle_type,
        settledAt: p.settled_at,
      },
    ]),
  );
  const storedPayIns = new Set(payIns.keys());
  const holdWrites = new Map<string, HoldState>();
  const usageChanges: UsageChange[] = [];
  const payInWrites = new Map<string, PayInState & { payTime?: Date; dueAt?: Date }>();
  const events: { subject: string; event: OrderSettledEvent }[] = [];
  const planned = new Map<string, PlannedEntry>();
  const outcomes: (Outcome | { kind: 'pending'; key: string; created: boolean })[] = [];

  for (const command of commands) {
    const decision = plan(command, { balances, holds, payIns, usage, today, booked, now: opts.now });
    switch (decision.kind) {
      case 'refuse':
        outcomes.push({ kind: 'refused', error: decision.error });
        continue;
      case 'existing':
        if (decision.conflict) {
          outcomes.push({ kind: 'refused', error: new LedgerError('KEY_CONFLICT', decision.conflict) });
        } else {
          outcomes.push({ kind: 'pending', key: decision.key, created: false });
        }
        continue;
      case 'skip':
        if (decision.hold) {
          holds.set(decision.hold.transferNo, decision.hold.state);
          holdWrites.set(decision.hold.transferNo, decision.hold.state);
        }
        outcomes.push({
          kind: 'skipped',
          reason: decision.reason,
          ...(decision.holdStatus && { holdStatus: decision.holdStatus }),
        });
        continue;
      case 'book': {
        const { entry } = decision;
        const movements = balanced(
          entry.key,
          decision.movements.filter((mv) => mv.amount !== 0),
        );
        const postings = postingsOf(movements, balances);
        const changes = merchantChanges(entry.mchNo, movements);
        const after = (part: (typeof PARTS)[number]) => balances.get(merchantAccount(entry.mchNo, part)) ?? 0;
        planned.set(entry.key, {
          postings,
          row: {
            key: entry.key,
            type: entry.type,
            mch_no: entry.mchNo,
            order_no: entry.orderNo,
            biz_order_no: entry.bizOrderNo,
            transfer_no: entry.transferNo,
            biz_transfer_no: entry.bizTransferNo,
            amount: entry.amount,
            fee: entry.fee,
            remark: entry.remark,
            available_change: changes.available,
            pending_change: changes.pending,
            frozen_change: changes.frozen,
            available_after: after('available'),
            pending_after: after('pending'),
            frozen_after: after('frozen'),
          },
        });
        booked.set(entry.key, { amount: entry.amount, fee: entry.fee });
        if (decision.usage) {
          applyUsage(usage, decision.usage);
          usageChanges.push(decision.usage);
        }
        if (decision.hold) {
          holds.set(decision.hold.transferNo, decision.hold.state);
          holdWrites.set(decision.hold.transferNo, decision.hold.state);
        }
        if (decision.payIn) {
          payIns.set(decision.payIn.orderNo, decision.payIn.state);
          payInWrites.set(decision.payIn.orderNo, {
            ...decision.payIn.state,
            ...(command.type === 'pay_in' && { payTime: command.payTime, dueAt: command.dueAt }),
          });
        }
        if (decision.settled) {
          events.push({
            subject: opts.settledSubject,
            event: {
              event_id: randomUUID(),
              mch_no: entry.mchNo,
              order_no: decision.settled.orderNo,
              biz_order_no: entry.bizOrderNo ?? '',
              settle_type: decision.settled.settleType,
              settle_time: decision.settled.settleTime.toISOString(),
              real_amount: String(decision.settled.realAmount),
              // The cause's trace (the status change, the sweep's run); a new root when none came.
              traceparent: traceparentOr(
                command.type === 'pay_in' || command.type === 'settle' ? command.traceparent : undefined,
              ),
            },
          });
        }
        outcomes.push({ kind: 'pending', key: entry.key, created: true });
        continue;
      }
      default: {
        const unreachable: never = decision;
        throw new Error(`unknown plan ${String(unreachable)}`);
      }
    }
  }

  await writeBatch(
    trx,
    { planned, balances, holdWrites, usageChanges, payInWrites, storedPayIns, events, now: opts.now },
    entriesByKey,
  );

  return outcomes.map((outcome) => {
    if (outcome.kind !== 'pending') return outcome;
    const entry = entriesByKey.get(outcome.key);
    if (!entry) throw new Error(`entry ${outcome.key} vanished from its own batch`);
    return { kind: 'booked', entry, created: outcome.created };
  });
}

async function writeBatch(
  trx: Transaction<Database>,
  batch: {
    planned: Map<string, PlannedEntry>;
    balances: Map<string, number>;
    holdWrites: Map<string, HoldState>;
    usageChanges: UsageChange[];
    payInWrites: Map<string, PayInState & { payTime?: Date; dueAt?: Date }>;
    storedPayIns: Set<string>;
    events: { subject: string; event: OrderSettledEvent }[];
    now: Date;
  },
  entriesByKey: Map<string, EntryRow>,
): Promise<void> {
  const planned = [...batch.planned.values()];
  const counts = new Map<string, number>();
  for (const p of planned) {
    for (const posting of p.postings) counts.set(posting.account, (counts.get(posting.account) ?? 0) + 1);
  }
  const holds = [...batch.holdWrites];
  if (planned.length > 0 || holds.length > 0) {
    const column = <T>(pick: (row: PlannedEntry['row']) => T) => planned.map((p) => pick(p.row));
    const postings = planned.flatMap((p) => p.postings.map((posting) => ({ key: p.row.key, ...posting })));
    // One statement for the whole batch, each column an array: its text never changes with the batch's
    // size, and the entries are numbered in planning order (the order their balances were computed in).
    const { rows } = await sql<EntryRow>`
      with new_entries as (
        insert into entries (key, type, mch_no, order_no, biz_order_no, transfer_no, biz_transfer_no, amount, fee,
          remark, available_change, pending_change, frozen_change, available_after, pending_after, frozen_after)
        select key, type, mch_no, order_no, biz_order_no, transfer_no, biz_transfer_no, amount, fee, remark,
          available_change, pending_change, frozen_change, available_after, pending_after, frozen_after
        from unnest(${column((r) => r.key)}::text[], ${column((r) => r.type)}::text[], ${column((r) => r.mch_no)}::text[],
          ${column((r) => r.order_no)}::text[], ${column((r) => r.biz_order_no)}::text[],
          ${column((r) => r.transfer_no)}::text[], ${column((r) => r.biz_transfer_no)}::text[],
          ${column((r) => r.amount)}::bigint[], ${column((r) => r.fee)}::bigint[], ${column((r) => r.remark)}::text[],
          ${column((r) => r.available_change)}::bigint[], ${column((r) => r.pending_change)}::bigint[],
          ${column((r) => r.frozen_change)}::bigint[], ${column((r) => r.available_after)}::bigint[],
          ${column((r) => r.pending_after)}::bigint[], ${column((r) => r.frozen_after)}::bigint[])
          with ordinality as u(key, type, mch_no, order_no, biz_order_no, transfer_no, biz_transfer_no, amount, fee,
            remark, available_change, pending_change, frozen_change, available_after, pending_after, frozen_after, ord)
        order by ord
        returning *
      ),
      new_postings as (
        insert into postings (entry_id, account, amount, balance_after)
        select e.id, p.account, p.amount, p.balance_after
        from unnest(${postings.map((p) => p.key)}::text[], ${postings.map((p) => p.account)}::text[],
          ${postings.map((p) => p.amount)}::bigint[], ${postings.map((p) => p.balance_after)}::bigint[])
          as p(key, account, amount, balance_after)
        join new_entries e on e.key = p.key
      ),
      moved as (
        update accounts a set balance = v.balance, postings = a.postings + v.n
        from unnest(${[...counts.keys()]}::text[], ${[...counts.keys()].map((id) => batch.balances.get(id) ?? 0)}::bigint[],
          ${[...counts.values()]}::bigint[]) as v(id, balance, n)
        where a.id = v.id
      ),
      held as (
        insert into holds (transfer_no, mch_no, biz_transfer_no, amount, fee, status, usage_day)
        select * from unnest(${holds.map(([t]) => t)}::text[], ${holds.map(([, h]) => h.mchNo)}::text[],
          ${holds.map(([, h]) => h.bizTransferNo)}::text[], ${holds.map(([, h]) => h.amount)}::bigint[],
          ${holds.map(([, h]) => h.fee)}::bigint[], ${holds.map(([, h]) => h.status)}::text[],
          ${holds.map(([, h]) => h.usageDay)}::text[])
        on conflict (transfer_no) do update set status = excluded.status, updated_at = now()
      )
      select * from new_entries order by id`.execute(trx);
    for (const row of rows) entriesByKey.set(row.key, row);
  }
  await writeUsage(trx, batch.usageChanges);
  const newPayIns = [...batch.payInWrites].filter(([orderNo]) => !batch.storedPayIns.has(orderNo));
  if (newPayIns.length > 0) {
    await trx
      .insertInto('pay_ins')
      .values(
        newPayIns.map(([orderNo, p]) => {
          if (!p.payTime || !p.dueAt) throw new Error(`pay-in ${orderNo} has no pay time`);
          return {
            order_no: orderNo,
            mch_no: p.mchNo,
            biz_order_no: p.bizOrderNo,
            real_amount: p.realAmount,
            settle_type: p.settleType,
            pay_time: p.payTime,
            due_at: p.dueAt,
            settled_at: p.settledAt,
          };
        }),
      )
      .execute();
  }
  const settled = [...batch.payInWrites]
    .filter(([orderNo, p]) => batch.storedPayIns.has(orderNo) && p.settledAt)
    .map(([orderNo]) => orderNo);
  if (settled.length > 0) {
    await trx
      .updateTable('pay_ins')
      .set({ settled_at: batch.now })
      .where('order_no', 'in', settled)
      .where('settled_at', 'is', null)
      .execute();
  }
  await enqueueEvents(trx, batch.events);
}

/** A merchant's three parts; zeros for a merchant the ledger has never seen. */
export async function balanceOf(
  db: Kysely<Database>,
  mchNo: string,
): Promise<{ available: number; pending: number; frozen: number }> {
  const rows = await db
    .selectFrom('accounts')
    .select(['kind', 'balance'])
    .where('mch_no', '=', mchNo)
    .execute();
  const balance = { available: 0, pending: 0, frozen: 0 };
  for (const row of rows) if (row.kind in balance) balance[row.kind as keyof typeof balance] = row.balance;
  return balance;
}
