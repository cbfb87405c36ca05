import type { Logger } from '@agentpay/logger';
import type { Clock } from '@agentpay/runtime';
import { AppError, feeFor, isAppError, requestFingerprint } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, TransferBatchRow, TransferRow } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import type { PayeeRegistry } from '../payees/payee.service.js';
import { checkPayee, describeProblem } from '../payees/payee-account.js';
import type { Merchant } from '../shared/merchant.js';
import {
  batchCounts,
  batchItems,
  batchItemsPage,
  findBatch,
  insertBatch,
  insertItems,
  markAccepted,
  staleAcceptingBatches,
  takenBizTransferNos,
  withdrawBatch,
} from './batch.repository.js';

/** Most items in one batch (CONTRACT section 21). */
export const MAX_BATCH_ITEMS = 1_000;

export interface BatchServiceDeps {
  db: Kysely<Database>;
  ledger: TransferLedger;
  payees: PayeeRegistry;
  logger: Logger;
  /** Longest wait for the ledger's FreezeBatch. */
  ledgerTimeoutMs: number;
  clock: Clock;
  /** Told when items were queued, so the sender starts at once instead of at its next round. */
  onQueued?: () => void;
}

/** One item of a batch as the merchant sent it (amount in centavos). */
export interface NewBatchItem {
  bizTransferNo: string;
  amount: number;
  title: string;
  reason: string;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
  attach: string;
}

export interface NewBatch {
  bizBatchNo: string;
  notifyUrl: string;
  items: readonly NewBatchItem[];
  clientIp: string;
  /** `api`, or the dashboard people who requested and approved it. */
  requestedBy: string;
}

/** A batch with its items counted per status. */
export interface BatchView {
  batch: TransferBatchRow;
  counts: Record<string, number>;
}

const itemField = (i: number, field: string) => `items[${i}].${field}`;

/** Batch payouts: accepted whole (validated, inserted and frozen as one), then each item sent on its own. */
export function createBatchService(deps: BatchServiceDeps) {
  const { db, ledger, logger } = deps;

  /**
   * Freezes an `accepting` batch's items in the ledger and queues them; withdraws the batch when the
   * ledger refuses it (the refusal is thrown). Safe to repeat: the freeze is idempotent by transfer.
   */
  async function accept(
    batch: TransferBatchRow,
    limits: Merchant['payoutLimits'],
    inserted?: readonly Pick<TransferRow, 'transfer_no' | 'biz_transfer_no' | 'amount' | 'fee'>[],
  ): Promise<void> {
    const started = performance.now();
    // The request that inserted the items has them; a repeat or the sweep reads them.
    const items = inserted ?? (await batchItems(db, batch.batch_no));
    const read = performance.now();
    try {
      await ledger.freezeBatch(
        {
          mchNo: batch.mch_no,
          items: items.map((t) => ({
            transferNo: t.transfer_no,
            bizTransferNo: t.biz_transfer_no,
            amount: t.amount,
            fee: t.fee,
          })),
          limits,
        },
        { timeoutMs: deps.ledgerTimeoutMs },
      );
    } catch (err) {
      if (
        isAppError(err) &&
        (err.codeName === 'INSUFFICIENT_BALANCE' || err.codeName === 'PAYOUT_LIMIT_EXCEEDED')
      ) {
        // The ledger froze nothing of it: the batch never existed, and its keys are free again.
        await db.transaction().execute((trx) => withdrawBatch(trx, batch.batch_no));
        throw err;
      }
      logger.warn({ err, batchNo: batch.batch_no }, 'batch freeze failed; left accepting for a retry');
      throw new AppError('SERVICE_UNAVAILABLE', 'ledger unavailable; send the same batch again');
    }
    const frozen = performance.now();
    if (await db.transaction().execute((trx) => markAccepted(trx, batch.batch_no))) {
      const ms = (from: number, to: number) => Math.round(to - from);
      logger.info(
        {
          batchNo: batch.batch_no,
          count: items.length,
          readMs: ms(started, read),
          freezeMs: ms(read, frozen),
          queueMs: ms(frozen, performance.now()),
        },
        'batch accepted; items queued',
      );
      deps.onQueued?.();
    }
  }

  async function view(batch: TransferBatchRow): Promise<BatchView> {
    return { batch, counts: await batchCounts(db, batch.batch_no) };
  }

  /** Checks every item as a transfer is checked, naming the first bad one; answers the rows to insert. */
  async function validate(merchant: Merchant, input: NewBatch) {
    if (input.items.length < 1 || input.items.length > MAX_BATCH_ITEMS)
      throw new AppError('INVALID_PARAMETER', `items (must hold 1..${MAX_BATCH_ITEMS})`);
    const seen = new Map<string, number>();
    const rows = input.items.map((item, i) => {
      const first = seen.get(item.bizTransferNo);
      if (first !== undefined)
        throw new AppError(
          'INVALID_PARAMETER',
          `${itemField(i, 'bizTransferNo')} (repeats ${itemField(first, 'bizTransferNo')})`,
        );
      seen.set(item.bizTransferNo, i);
      let check: ReturnType<typeof checkPayee>;
      try {
        check = checkPayee({
          payeeType: item.payeeType,
          payeeAccount: item.payeeAccount,
          payeeCode: item.payeeCode,
        });
      } catch (err) {
        // An unknown payee type (40001) or code (40002), or a card without its code (10001): named by item.
        if (isAppError(err)) throw new AppError(err.codeName, `items[${i}]: ${err.detail ?? err.message}`);
        throw err;
      }
      if (!check.ok)
        throw new AppError(
          'INVALID_PAYEE_ACCOUNT',
          `${itemField(i, 'payeeAccount')}: ${describeProblem(check.problem)}`,
        );
      // The business parameters as a single transfer records them, so a repeat of the item as a single
      // transfer (same bizTransferNo and figures) answers it, and anything else is 40003.
      const business = {
        amount: item.amount,
        title: item.title,
        reason: item.reason,
        payee_type: check.payee.payeeType,
        payee_account: check.payee.payeeAccount,
        payee_name: item.payeeName,
        payee_code: check.payee.payeeCode,
        extra_param: '',
        attach: item.attach,
        notify_url: input.notifyUrl,
      };
      return {
        ...business,
        mch_no: merchant.mchNo,
        app_id: merchant.appId,
        biz_transfer_no: item.bizTransferNo,
        fee: feeFor(item.amount, merchant.feeRate),
        client_ip: input.clientIp,
        fingerprint: requestFingerprint(business),
      };
    });
    return rows;
  }

  return {
    /** CreateTransferBatch: idempotent on (mch_no, biz_batch_no). */
    async create(merchant: Merchant, input: NewBatch): Promise<{ view: BatchView; created: boolean }> {
      const started = performance.now();
      const rows = await validate(merchant, input);
      const fingerprint = requestFingerprint({
        notify_url: input.notifyUrl,
        items: JSON.stringify(
          rows.map((r) => [
            r.biz_transfer_no,
            r.amount,
            r.title,
            r.reason,
            r.payee_type,
            r.payee_account,
            r.payee_name,
            r.payee_code,
            r.attach,
          ]),
        ),
      });
      const ref = { mchNo: merchant.mchNo, batchNo: '', bizBatchNo: input.bizBatchNo };
      const repeat = async (existing: TransferBatchRow) => {
        if (existing.fingerprint !== fingerprint) throw new AppError('DUPLICATE_BATCH');
        // The first request died (or is still running) before the freeze answered: finish it here.
        if (existing.state === 'accepting') await accept(existing, merchant.payoutLimits);
        const current = await findBatch(db, ref);
        if (!current) throw new AppError('SERVICE_UNAVAILABLE', 'batch withdrawn meanwhile; try again');
        return { view: await view(current), created: false };
      };

      const existing = await findBatch(db, ref);
      if (existing) return repeat(existing);

      if (merchant.registeredPayeesOnly) {
        for (const [i, r] of rows.entries()) {
          if (!(await deps.payees.usable(merchant.mchNo, r.payee_type, r.payee_account)))
            throw new AppError('PAYEE_NOT_REGISTERED', itemField(i, 'payeeAccount'));
        }
      }
      const taken = await takenBizTransferNos(
        db,
        merchant.mchNo,
        rows.map((r) => r.biz_transfer_no),
      );
      const clash = rows.findIndex((r) => taken.has(r.biz_transfer_no));
      if (clash >= 0) {
        // The items may be this very batch's, inserted by a concurrent identical request since the look above.
        const now = await findBatch(db, ref);
        if (now) return repeat(now);
        throw new AppError('DUPLICATE_TRANSFER', itemField(clash, 'bizTransferNo'));
      }

      class Raced extends Error {}
      let batch: TransferBatchRow | undefined;
      let inserted: Awaited<ReturnType<typeof insertItems>> = [];
      try {
        batch = await db.transaction().execute(async (trx) => {
          const created = await insertBatch(trx, {
            mch_no: merchant.mchNo,
            app_id: merchant.appId,
            biz_batch_no: input.bizBatchNo,
            notify_url: input.notifyUrl,
            count: rows.length,
            amount: rows.reduce((sum, r) => sum + r.amount, 0),
            fee: rows.reduce((sum, r) => sum + r.fee, 0),
            fingerprint,
            requested_by: input.requestedBy || 'api',
          });
          if (!created) return undefined;
          const items = await insertItems(trx, created.batch_no, rows);
          // A bizTransferNo taken since the check above (a concurrent transfer): nothing of the batch stays.
          if (items.length !== rows.length) throw new Raced();
          inserted = items;
          return created;
        });
      } catch (err) {
        if (err instanceof Raced) {
          const now = await findBatch(db, ref);
          if (now) return repeat(now);
          const used = await takenBizTransferNos(
            db,
            merchant.mchNo,
            rows.map((r) => r.biz_transfer_no),
          );
          const i = rows.findIndex((r) => used.has(r.biz_transfer_no));
          throw new AppError('DUPLICATE_TRANSFER', itemField(Math.max(i, 0), 'bizTransferNo'));
        }
        throw err;
      }
      if (!batch) {
        // A concurrent identical request inserted it first.
        const winner = await findBatch(db, ref);
        if (!winner) throw new AppError('SERVICE_UNAVAILABLE', 'batch is being created, try again');
        return repeat(winner);
      }
      logger.info(
        { batchNo: batch.batch_no, insertMs: Math.round(performance.now() - started) },
        'batch inserted; freezing',
      );
      await accept(batch, merchant.payoutLimits, inserted);
      const current = await findBatch(db, ref);
      if (!current) throw new AppError('INTERNAL_ERROR');
      return { view: await view(current), created: true };
    },

    /** GetTransferBatch: the batch, its counts and one page of items. */
    async get(
      ref: { mchNo: string; batchNo: string; bizBatchNo: string },
      page: { cursor: string; limit: number },
    ): Promise<BatchView & { items: TransferRow[]; nextCursor: string }> {
      const batch = await findBatch(db, ref);
      // A batch whose freeze has not answered yet does not exist for the merchant.
      if (batch?.state !== 'accepted') throw new AppError('TRANSFER_NOT_FOUND');
      const limit = page.limit || 100;
      if (limit < 1 || limit > 500) throw new AppError('INVALID_PARAMETER', 'limit (must be 1..500)');
      const items = await batchItemsPage(db, batch.batch_no, page.cursor, limit + 1);
      const more = items.length > limit;
      const shown = more ? items.slice(0, limit) : items;
      return {
        ...(await view(batch)),
        items: shown,
        nextCursor: more ? (shown[shown.length - 1]?.transfer_no ?? '') : '',
      };
    },

    /**
     * One round of recovery of batches whose request died between the insert and the end of the freeze,
     * and that nobody sent again since: the merchant never heard of them, so they never existed. Each
     * item's freeze (if the ledger wrote one) is voided, then the batch and its items are removed.
     */
    async sweepAccepting(staleMs: number): Promise<number> {
      const stale = await staleAcceptingBatches(db, new Date(deps.clock.now().getTime() - staleMs), 20);
      let moved = 0;
      for (const batch of stale) {
        try {
          const items = await batchItems(db, batch.batch_no);
          for (const item of items) {
            await ledger.voidFreeze(
              { mchNo: batch.mch_no, transferNo: item.transfer_no },
              { timeoutMs: deps.ledgerTimeoutMs },
            );
          }
          if (await db.transaction().execute((trx) => withdrawBatch(trx, batch.batch_no))) moved++;
          logger.warn(
            { batchNo: batch.batch_no },
            'abandoned batch never accepted: freezes voided, withdrawn',
          );
        } catch (err) {
          logger.warn({ err, batchNo: batch.batch_no }, 'abandoned batch could not be withdrawn; will retry');
        }
      }
      return moved;
    },
  };
}

export type BatchService = ReturnType<typeof createBatchService>;

/** A batch's status as merchants see it: progress until every item ended, then done. */
export function batchStatus(counts: Record<string, number>): 'progress' | 'done' {
  return (counts.progress ?? 0) + (counts.submitting ?? 0) > 0 ? 'progress' : 'done';
}
