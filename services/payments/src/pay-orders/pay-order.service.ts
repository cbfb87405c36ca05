import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@agentpay/logger';
import type {
  ApplyUpstreamPaymentRequest__Output,
  CreatePayOrderRequest__Output,
  MerchantContext__Output,
  PayOrderRef__Output,
} from '@agentpay/proto';
import { AppError, centavosToAmount, feeFor, formatWireTime, MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import type { AccountRef, Upstream, UpstreamState } from '../upstream/upstream.client.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import {
  deleteCreating,
  findByBizOrderNo,
  findMerchantOrder,
  insertCreating,
  markOpened,
  type OpeningRow,
  takeOverCreating,
} from './pay-order.repository.js';
import { isOpen } from './pay-order.state-machine.js';
import { moveOrder, type TransitionDeps, traceparentOr } from './pay-order.transition.js';

/** CONTRACT.md section 7: expiredTime defaults to 24 h after creation and may lie at most 30 days ahead. */
const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;
const MAX_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
const SETTLE_TYPES = new Set(['REALTIME', 'D+1', 'D+2', 'D+3']);
const DEFAULT_SETTLE_TYPE = 'D+1';

export interface PayOrderServiceDeps {
  db: Kysely<Database>;
  logger: Logger;
  upstream: Upstream;
  /** `${EVENTS_SUBJECT_PREFIX}.pay.status_changed` */
  subject: string;
  /** Platform time zone, for the wire times inside payBody. */
  timeZone: string;
  /** See CREATE_LEASE_MS in config.ts. */
  createLeaseMs: number;
}

export interface PayOrderService {
  create(
    request: CreatePayOrderRequest__Output,
    opts?: { cancelled?: () => boolean },
  ): Promise<{ order: PayOrderRow; created: boolean }>;
  close(ref: PayOrderRef__Output | null, useCancel: boolean): Promise<PayOrderRow>;
  get(ref: PayOrderRef__Output | null): Promise<PayOrderRow>;
  sync(ref: PayOrderRef__Output | null): Promise<{ order: PayOrderRow; adjust: boolean }>;
  applyUpstream(
    request: ApplyUpstreamPaymentRequest__Output,
    traceparent: string | undefined,
  ): Promise<{ order: PayOrderRow; changed: boolean }>;
}

/** The business parameters of a create that decide whether a repeat is "the same" (CONTRACT.md 6). */
interface CreateInput {
  bizOrderNo: string;
  title: string;
  description: string;
  /** As requested; undefined means the default. */
  expiredTime: Date | undefined;
  method: string;
  limitPay: string;
  amount: number;
  extraParam: string;
  attach: string;
  returnUrl: string;
  quitUrl: string;
  notifyUrl: string;
}

function invalid(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field} (${problem})`);
}

function requireMerchant(merchant: MerchantContext__Output | null): MerchantContext__Output {
  if (!merchant?.mch_no) throw invalid('mchNo', 'required');
  return merchant;
}

/** Checks the request is well-formed. The gateway validated it already; this guards other callers. */
function createInput(request: CreatePayOrderRequest__Output): CreateInput {
  if (!request.biz_order_no) throw invalid('bizOrderNo', 'required');
  if (!request.title) throw invalid('title', 'required');
  if (!request.method) throw invalid('method', 'required');
  const amount = Number(request.amount);
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_CENTAVOS) {
    throw invalid('amount', 'must be 0.01..99999999.99');
  }
  let expiredTime: Date | undefined;
  if (request.expired_time) {
    expiredTime = new Date(request.expired_time);
    if (Number.isNaN(expiredTime.getTime())) throw invalid('expiredTime', 'must be yyyy-MM-dd HH:mm:ss');
  }
  return {
    bizOrderNo: request.biz_order_no,
    title: request.title,
    description: request.description,
    expiredTime,
    method: request.method,
    limitPay: request.limit_pay,
    amount,
    extraParam: request.extra_param,
    attach: request.attach,
    returnUrl: request.return_url,
    quitUrl: request.quit_url,
    notifyUrl: request.notify_url,
  };
}

/**
 * Hash of the business parameters. appId, clientIp, nonce and reqTime are not business parameters: a
 * retry from another app or address is still the same order. An absent expiredTime stays absent, so a
 * retry without it matches although the stored default depends on the creation time.
 */
function fingerprintOf(input: CreateInput): string {
  const fields = [
    input.bizOrderNo,
    input.title,
    input.description,
    input.expiredTime?.toISOString() ?? '',
    input.method,
    input.limitPay,
    String(input.amount),
    input.extraParam,
    input.attach,
    input.returnUrl,
    input.quitUrl,
    input.notifyUrl,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** expiredTime must lie in the future and within 30 days (only judged for a new order). */
function checkExpiry(expiredTime: Date | undefined, now: number): void {
  if (expiredTime === undefined) return;
  if (expiredTime.getTime() <= now) throw invalid('expiredTime', 'must be in the future');
  if (expiredTime.getTime() > now + MAX_EXPIRY_MS) throw invalid('expiredTime', 'must be within 30 days');
}

function refOf(order: PayOrderRow): AccountRef {
  return { routeId: order.route_id ?? '', orderNo: order.order_no, upstreamRef: order.upstream_ref ?? '' };
}

export function payOrderService(deps: PayOrderServiceDeps): PayOrderService {
  const { db, logger, upstream } = deps;
  const transitions: TransitionDeps = { db, logger, subject: deps.subject };

  function payBodyOf(order: OpeningRow, account: Awaited<ReturnType<Upstream['openAccount']>>): string {
    return JSON.stringify({
      clabe: account.clabe,
      bankCode: account.bankCode,
      bankName: account.bankName,
      beneficiaryName: account.beneficiaryName,
      amount: centavosToAmount(order.amount),
      expiredTime: formatWireTime(order.expired_time, deps.timeZone),
      reference: account.reference,
    });
  }

  /** Opens the virtual account of an order this request owns (`claim`), outside any transaction. */
  async function open(
    row: OpeningRow,
    claim: string,
    traceparent: string,
  ): Promise<{ order: PayOrderRow; created: boolean }> {
    let account: Awaited<ReturnType<Upstream['openAccount']>>;
    try {
      account = await upstream.openAccount(
        {
          mchNo: row.mch_no,
          method: row.method,
          orderNo: row.order_no,
          amount: row.amount,
          expiredTime: row.expired_time,
        },
        traceparent,
      );
    } catch (err) {
      // The router answers an error only when nothing was opened: forget the order so that the
      // merchant's retry (or a waiting duplicate) starts afresh instead of finding a dead one.
      await deleteCreating(db, row.order_no, claim).catch((deleteErr: unknown) =>
        logger.error({ err: deleteErr, orderNo: row.order_no }, 'could not remove a failed opening'),
      );
      throw err;
    }
    const opened = await markOpened(db, row.order_no, claim, {
      payBody: payBodyOf(row, account),
      routeId: account.routeId,
      upstreamRef: account.upstreamRef,
    });
    if (opened) {
      logger.info({ orderNo: opened.order_no, mchNo: opened.mch_no }, 'pay order created');
      return { order: opened, created: true };
    }
    // Our lease ran out and another request took the opening over; its account is the order's.
    const current = await findByBizOrderNo(db, row.mch_no, row.biz_order_no);
    if (current?.opened_at) return { order: current, created: false };
    throw new AppError('SERVICE_UNAVAILABLE', 'order is being created, try again');
  }

  async function find(ref: PayOrderRef__Output | null): Promise<PayOrderRow> {
    const merchant = requireMerchant(ref?.merchant ?? null);
    if (!ref?.order_no && !ref?.biz_order_no) throw invalid('orderNo or bizOrderNo', 'one is required');
    const order = await findMerchantOrder(db, merchant.mch_no, {
      orderNo: ref.order_no,
      bizOrderNo: ref.biz_order_no,
    });
    if (!order) throw new AppError('ORDER_NOT_FOUND');
    return order;
  }

  return {
    async create(request, opts = {}) {
      const merchant = requireMerchant(request.merchant);
      const input = createInput(request);
      const fingerprint = fingerprintOf(input);
      const traceparent = traceparentOr(merchant.traceparent);
      const giveUpAt = Date.now() + deps.createLeaseMs + 1_000;
      let pause = 20;
      // A new order is the common case, so the first round inserts straight away and the lookup runs
      // only once the key turns out to be taken (or the request could not make a new order: a repeat of
      // an order whose expiredTime has passed still answers that order). One round trip fewer per pay.
      for (let round = 0; ; round++) {
        const existing =
          round === 0 ? undefined : await findByBizOrderNo(db, merchant.mch_no, input.bizOrderNo);
        if (existing) {
          if (existing.fingerprint !== fingerprint) throw new AppError('DUPLICATE_ORDER');
          if (existing.opened_at) return { order: existing, created: false };
          // Another request is opening it: wait for its outcome, or take over if its owner died.
          const claim = randomUUID();
          const taken = await takeOverCreating(db, existing.order_no, claim, deps.createLeaseMs);
          if (taken) {
            logger.warn({ orderNo: taken.order_no }, 'took over an abandoned pay order opening');
            return open(taken, claim, traceparent);
          }
          if (Date.now() > giveUpAt || opts.cancelled?.()) {
            throw new AppError('SERVICE_UNAVAILABLE', 'order is being created, try again');
          }
          await sleep(pause);
          pause = Math.min(pause * 2, 250);
          continue;
        }

        try {
          checkExpiry(input.expiredTime, Date.now());
        } catch (err) {
          if (round === 0) continue;
          throw err;
        }
        const percentBps = merchant.fee_percent_bps;
        const fixedCentavos = Number(merchant.fee_fixed_centavos || 0);
        let fee: number;
        try {
          fee = feeFor(input.amount, { percentBps, fixedCentavos });
        } catch (err) {
          logger.error({ err, mchNo: merchant.mch_no }, 'merchant fee rate is unusable');
          throw new AppError('INTERNAL_ERROR');
        }
        const claim = randomUUID();
        const row = await insertCreating(
          db,
          {
            mch_no: merchant.mch_no,
            biz_order_no: input.bizOrderNo,
            app_id: merchant.app_id,
            title: input.title,
            description: input.description,
            method: input.method,
            limit_pay: input.limitPay,
            amount: input.amount,
            fee,
            real_amount: input.amount - fee,
            status: 'wait',
            settle_status: 'not_settle',
            settle_type: SETTLE_TYPES.has(merchant.settle_type) ? merchant.settle_type : DEFAULT_SETTLE_TYPE,
            expired_time: input.expiredTime ?? null,
            attach: input.attach,
            notify_url: input.notifyUrl,
            return_url: input.returnUrl,
            quit_url: input.quitUrl,
            extra_param: input.extraParam,
            client_ip: request.client_ip,
            fingerprint,
          },
          claim,
          { leaseMs: deps.createLeaseMs, defaultExpiryMs: DEFAULT_EXPIRY_MS },
        );
        // The key is taken (a repeat, or a lost race): the next round finds that row.
        if (!row) continue;
        return open(row, claim, traceparent);
      }
    },

    async close(ref, useCancel) {
      const target = useCancel ? 'cancel' : 'close';
      const order = await find(ref);
      const traceparent = traceparentOr(ref?.merchant?.traceparent);
      if (order.status === target) return order;
      if (!isOpen(order.status)) throw new AppError('ORDER_STATUS_FORBIDS');

      // Upstream first: once it says closed, no deposit can land, so the local close cannot be wrong.
      const state = await upstream.closeAccount(refOf(order), traceparent);
      const now = new Date();
      if (state.status === 'success') {
        await moveOrder(transitions, order.order_no, (current) =>
          decideFromUpstream(current, state, { now, traceparent, logger }),
        );
        throw new AppError('ORDER_ALREADY_PAID');
      }
      if (state.status === 'wait') {
        logger.warn({ orderNo: order.order_no }, 'upstream did not close the virtual account');
        throw new AppError('UPSTREAM_UNAVAILABLE');
      }
      const { order: closed } = await moveOrder(transitions, order.order_no, (current) => {
        if (current.status === target) return undefined;
        // A deposit notice won the race after upstream answered.
        if (current.status === 'success') throw new AppError('ORDER_ALREADY_PAID');
        if (!isOpen(current.status)) throw new AppError('ORDER_STATUS_FORBIDS');
        return { to: target, cause: 'merchant', set: { close_time: now }, traceparent };
      });
      return closed;
    },

    get: find,

    async sync(ref) {
      const order = await find(ref);
      const traceparent = traceparentOr(ref?.merchant?.traceparent);
      const state = await upstream.queryAccount(refOf(order), traceparent);
      const result = await moveOrder(transitions, order.order_no, (current) =>
        decideFromUpstream(current, state, { now: new Date(), traceparent, logger }),
      );
      return { order: result.order, adjust: result.changed };
    },

    async applyUpstream(request, traceparentHeader) {
      if (!request.order_no) throw invalid('order_no', 'required');
      if (!['success', 'fail', 'close'].includes(request.status)) throw invalid('status', 'unknown');
      const state: UpstreamState = {
        status: request.status as UpstreamState['status'],
        paidAmount: Number(request.paid_amount || 0),
        paidAt: request.paid_at ? new Date(request.paid_at) : undefined,
      };
      const traceparent = traceparentOr(traceparentHeader);
      const result = await moveOrder(transitions, request.order_no, (current) =>
        decideFromUpstream(current, state, {
          now: new Date(),
          traceparent,
          noticeId: request.notice_id || undefined,
          logger,
        }),
      );
      if (!result.changed) {
        logger.info(
          { orderNo: request.order_no, noticeId: request.notice_id, status: result.order.status },
          'upstream payment notice changed nothing',
        );
      }
      return result;
    },
  };
}
