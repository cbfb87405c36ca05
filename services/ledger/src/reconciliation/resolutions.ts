import { actionsFor, RESOLUTION_ACTIONS, type ResolutionAction } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { type Clock, startBackgroundLoop, systemClock } from '@agentpay/runtime';
import type { Kysely, Transaction } from 'kysely';
import type { Database, DiscrepancyRow } from '../db/schema.js';
import { LedgerError } from '../ledger/ledger.errors.js';
import { type BookingOrigin, type LedgerService, recordOrigin } from '../ledger/ledger.service.js';
import { bookPlatformEntry } from './platform-entries.js';
import type { ReconRouter } from './router.client.js';

/** How a return payout of unmatched money stands; the discrepancy's resolution_status ('' for other actions). */
export const RETURN_STATUSES = ['pending', 'success', 'fail'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export interface ResolveInput {
  /** The discrepancy's id as given; one that is not a number names none (NOT_FOUND). */
  id: string;
  action: string;
  reason: string;
  /** The label of the person who asked (the call's x-agentpay-actor), or the old free-text field. */
  operator: string;
  /** Who asked, when the call named them: recorded beside a credit's entry. */
  origin?: BookingOrigin | undefined;
  /** credit / return: the merchant when the discrepancy names none (the caller looked the order up). */
  mchNo?: string;
}

export interface Resolutions {
  resolve(input: ResolveInput): Promise<DiscrepancyRow>;
  /** One round of the return loop: asks the router about each return in flight; answers how many finished. */
  followReturns(): Promise<number>;
  stop(): Promise<void>;
}

export interface ResolutionDeps {
  db: Kysely<Database>;
  logger: Logger;
  ledger: LedgerService;
  router: ReconRouter;
  /** Pause between rounds of the return loop; 0 turns it off (followReturns still works). */
  pollMs: number;
  /** Where "now" comes from (tests move it); the system clock by default. */
  clock?: Clock;
}

interface ChannelSide {
  kind?: string;
  senderAccount?: string;
  senderName?: string;
  reference?: string;
}

/** Whether `action` resolves `d` (ACTIONS_BY_KIND, @agentpay/api); `apply` only a deposit the platform missed. */
function fits(action: ResolutionAction, d: DiscrepancyRow): boolean {
  if (!actionsFor(d.kind).includes(action)) return false;
  return action !== 'apply' || ((d.channel ?? {}) as ChannelSide).kind === 'deposit';
}

/** The return payout's number for an attempt: each attempt its own payout and entries. */
const payoutNo = (id: number, attempt: number) => `RET${id}A${attempt}`;

/**
 * Operators' resolutions of discrepancies (CONTRACT.md 14). Each records operator, reason and time in the
 * transaction that marks the discrepancy resolved, by a conditional update from `open`: of two resolutions
 * racing, one wins and the other answers ALREADY_RESOLVED, and a booking made for the loser rolls back.
 */
export function startResolutions(deps: ResolutionDeps): Resolutions {
  const { db, logger, ledger, router } = deps;

  /** Marks `id` resolved in `trx` if it is still open; throws ALREADY_RESOLVED otherwise. */
  async function markResolved(
    trx: Transaction<Database>,
    id: number,
    input: ResolveInput & { action: ResolutionAction },
    extra: { resolution_ref?: string; resolution_status?: ReturnStatus; return_attempts?: number } = {},
  ): Promise<void> {
    const updated = await trx
      .updateTable('discrepancies')
      .set({
        state: 'resolved',
        resolution_action: input.action,
        resolution_operator: input.operator,
        resolution_reason: input.reason,
        resolution_approval_id: input.origin?.approvalId ?? '',
        resolved_at: (deps.clock ?? systemClock).now(),
        resolution_ref: extra.resolution_ref ?? '',
        resolution_status: extra.resolution_status ?? '',
        ...(extra.return_attempts !== undefined && { return_attempts: extra.return_attempts }),
      })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new LedgerError('ALREADY_RESOLVED', `discrepancy ${id}`);
  }

  const load = async (id: number) => {
    const row = await db.selectFrom('discrepancies').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new LedgerError('NOT_FOUND', `discrepancy ${id}`);
    return row;
  };

  /** A return that failed: the money is on the channel again (reversal entry) and the discrepancy open. */
  async function failReturn(d: DiscrepancyRow, ref: string, status: string): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const reopened = await trx
        .updateTable('discrepancies')
        .set({ state: 'open', resolution_status: 'fail' })
        .where('id', '=', d.id)
        .where('resolution_ref', '=', ref)
        .where('resolution_status', '=', 'pending')
        .executeTakeFirst();
      if (Number(reopened.numUpdatedRows) !== 1) return false;
      await bookPlatformEntry(trx, {
        key: `unmatched_return_reversal:${ref}`,
        type: 'unmatched_return_reversal',
        routeId: d.route_id,
        amount: d.amount,
        remark: `discrepancy ${d.id}: return payout ${ref} ${status}`,
        orderNo: d.order_no,
      });
      logger.warn(
        { discrepancyId: d.id, payout: ref, status },
        'return payout failed; the discrepancy is open again',
      );
      return true;
    });
  }

  async function resolve(input: ResolveInput): Promise<DiscrepancyRow> {
    if (!(RESOLUTION_ACTIONS as readonly string[]).includes(input.action)) {
      throw new LedgerError('ACTION_NOT_ALLOWED', `action must be one of ${RESOLUTION_ACTIONS.join(', ')}`);
    }
    const action = input.action as ResolutionAction;
    if (!input.operator) throw new LedgerError('INVALID_REQUEST', 'operator is required');
    if (!input.reason) throw new LedgerError('INVALID_REQUEST', 'reason is required');
    const d = await load(/^\d{1,15}$/.test(input.id) ? Number(input.id) : 0);
    if (!fits(action, d)) {
      throw new LedgerError(
        'ACTION_NOT_ALLOWED',
        `${action} does not resolve a ${d.kind}${d.kind === 'missing_on_platform' ? ' that is not a deposit' : ''}`,
      );
    }
    if (d.state !== 'open') throw new LedgerError('ALREADY_RESOLVED', `discrepancy ${d.id}`);
    const resolving = { ...input, action };

    switch (action) {
      case 'apply':
        // The caller syncs the order in payments; its pay-in books from its event as usual.
        await db.transaction().execute((trx) => markResolved(trx, d.id, resolving));
        break;
      case 'credit': {
        const mchNo = d.mch_no || input.mchNo || '';
        if (!mchNo) throw new LedgerError('INVALID_REQUEST', 'mch_no: the discrepancy names no merchant');
        const [outcome] = await ledger.bookNow(
          [
            {
              type: 'credit',
              mchNo,
              discrepancyId: String(d.id),
              routeId: d.route_id,
              orderNo: d.order_no,
              amount: d.amount,
              reason: input.reason,
            },
          ],
          async (trx) => {
            const entry = await trx
              .selectFrom('entries')
              .select('id')
              .where('key', '=', `credit:${d.id}`)
              .executeTakeFirstOrThrow();
            await markResolved(trx, d.id, resolving, { resolution_ref: String(entry.id) });
            if (input.origin) await recordOrigin(trx, `credit:${d.id}`, input.origin);
            if (!d.mch_no)
              await trx.updateTable('discrepancies').set({ mch_no: mchNo }).where('id', '=', d.id).execute();
          },
        );
        if (outcome?.kind === 'refused') throw outcome.error;
        break;
      }
      case 'return': {
        const channel = (d.channel ?? {}) as ChannelSide;
        const mchNo = d.mch_no || input.mchNo || '';
        if (!channel.senderAccount)
          throw new LedgerError('INVALID_REQUEST', 'the deposit names no sender account');
        if (!mchNo) throw new LedgerError('INVALID_REQUEST', 'mch_no: the discrepancy names no merchant');
        const attempt = d.return_attempts + 1;
        const ref = payoutNo(d.id, attempt);
        // Booked before the payout is submitted, like a transfer's freeze: the books never show money on the
        // channel that a payout already took.
        await db.transaction().execute(async (trx) => {
          await markResolved(trx, d.id, resolving, {
            resolution_ref: ref,
            resolution_status: 'pending',
            return_attempts: attempt,
          });
          await bookPlatformEntry(trx, {
            key: `unmatched_return:${ref}`,
            type: 'unmatched_return',
            routeId: d.route_id,
            amount: d.amount,
            remark: `discrepancy ${d.id}: return payout ${ref}`,
            orderNo: d.order_no,
          });
        });
        try {
          const submitted = await router.submitPayout({
            mchNo,
            transferNo: ref,
            amount: d.amount,
            payeeAccount: channel.senderAccount,
            payeeName: channel.senderName || 'payer',
            reason: `return of deposit ${channel.reference ?? ''}`.trim(),
          });
          if (submitted.status === 'fail') await failReturn(d, ref, 'rejected');
        } catch (err) {
          // The answer may be lost with the payout made: the return loop asks the router where it stands.
          logger.warn(
            { err, discrepancyId: d.id, payout: ref },
            'return payout submission failed; the loop will ask',
          );
        }
        break;
      }
      default: {
        const unreachable: never = action;
        throw new Error(`unknown action ${String(unreachable)}`);
      }
    }
    return load(d.id);
  }

  async function followReturns(): Promise<number> {
    const inFlight = await db
      .selectFrom('discrepancies')
      .selectAll()
      .where('resolution_action', '=', 'return')
      .where('resolution_status', '=', 'pending')
      .orderBy('id')
      .limit(100)
      .execute();
    let finished = 0;
    for (const d of inFlight) {
      try {
        const { status } = await router.queryPayout({
          routeId: '',
          transferNo: d.resolution_ref,
          upstreamRef: '',
        });
        if (status === 'success') {
          const done = await db
            .updateTable('discrepancies')
            .set({ resolution_status: 'success' })
            .where('id', '=', d.id)
            .where('resolution_ref', '=', d.resolution_ref)
            .where('resolution_status', '=', 'pending')
            .executeTakeFirst();
          if (Number(done.numUpdatedRows) === 1) finished += 1;
        } else if (status === 'fail' || status === 'returned') {
          if (await failReturn(d, d.resolution_ref, status)) finished += 1;
        }
      } catch (err) {
        logger.warn(
          { err, discrepancyId: d.id, payout: d.resolution_ref },
          'could not ask about a return payout',
        );
      }
    }
    return finished;
  }

  const loop = startBackgroundLoop({
    name: 'return payouts',
    logger,
    intervalMs: deps.pollMs,
    round: () => followReturns(),
  });

  return { resolve, followReturns, stop: () => loop.stop() };
}
