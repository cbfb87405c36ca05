import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isSettleType } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import {
  AppError,
  centavosToAmount,
  type FeeRate,
  feeFor,
  formatWireTime,
  requestFingerprint,
} from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import type { Upstream, UpstreamState, VirtualAccountRef } from '../upstream/router.client.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import {
  deleteCreating,
  findByBizOrderNo,
  findMerchantOrder,
  findOpenedOrder,
  insertCreating,
  markOpened,
  type OpeningRow,
  takeOverCreating,
} from './pay-order.repository.js';
import { isOpen } from './pay-order.state-machine.js';
import { moveOrder } from './pay-order.transition.js';

/** docs/merchant-api.md "Statuses": expiredTime defaults to 24 h after creation and may lie at most 30 days ahead. */
const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;
const MAX_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
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

/** The merchant a request is for, as the gateway authenticated it. */
export interface Merchant {
  mchNo: string;
  appId: string;
  /** The registered name, shown to payers as the beneficiary. */
  name: string;
  feeRate: FeeRate;
  settleType: string;
}

/** One of a merchant's orders, by its number, the merchant's number, or both (then both must match). */
export interface OrderRef {
  mchNo: string;
  orderNo: string;
  bizOrderNo: string;
}

/** What a request carries besides its business parameters. */
export interface RequestContext {
  /** W3C traceparent of the merchant's request; every change it causes continues it. */
  traceparent: string;
}

export interface PayOrderService {
  create(
    merchant: Merchant,
    order: NewPayOrder,
    context: RequestContext & { clientIp: string; cancelled?: () => boolean },
  ): Promise<{ order: PayOrderRow; created: boolean }>;
  close(ref: OrderRef, useCancel: boolean, context: RequestContext): Promise<PayOrderRow>;
  get(ref: OrderRef): Promise<PayOrderRow>;
  /** An opened order by platform number, whatever its merchant (operators' lookups). */
  locate(orderNo: string): Promise<PayOrderRow>;
  sync(ref: OrderRef, context: RequestContext): Promise<{ order: PayOrderRow; adjust: boolean }>;
  /** Applies a payment notice from upstream; a repeat changes nothing. */
  applyNotice(notice: PaymentNotice): Promise<{ order: PayOrderRow; changed: boolean }>;
}

/** What a channel reported about an order's virtual account, as the router recorded it. */
export interface PaymentNotice {
  noticeId: string;
  orderNo: string;
  status: 'success' | 'fail' | 'close';
  /** Centavos received; 0 when not reported. */
  paidAmount: number;
  paidAt: Date | undefined;
  /** SPEI tracking key of the paying deposit; '' when the channel has none. */
  claveRastreo: string;
  /** The notice delivery's trace, continued by the change it causes. */
  traceparent: string;
}

/** The business parameters of a create that decide whether a repeat is "the same" (docs/merchant-api.md "Idempotency"). */
export interface NewPayOrder {
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

/**
 * Hash of the business parameters. appId, clientIp, nonce and reqTime are not business parameters: a
 * retry from another app or address is still the same order. An absent expiredTime stays absent, so a
 * retry without it matches although the stored default depends on the creation time.
 */
function fingerprintOf(input: NewPayOrder): string {
  return requestFingerprint({
    bizOrderNo: input.bizOrderNo,
    title: input.title,
    description: input.description,
    expiredTime: input.expiredTime?.toISOString() ?? '',
    method: input.method,
    limitPay: input.limitPay,
    amount: input.amount,
    extraParam: input.extraParam,
    attach: input.attach,
    returnUrl: input.returnUrl,
    quitUrl: input.quitUrl,
    notifyUrl: input.notifyUrl,
  });
}

/** What is wrong with expiredTime for a new order (future, within 30 days); undefined when fine. */
function checkExpiry(expiredTime: Date | undefined, now: number): AppError | undefined {
  if (expiredTime === undefined) return undefined;
  if (expiredTime.getTime() <= now) return invalid('expiredTime', 'must be in the future');
  if (expiredTime.getTime() > now + MAX_EXPIRY_MS) return invalid('expiredTime', 'must be within 30 days');
  return undefined;
}

/** One create request, as its steps need it. */
interface CreateAttempt {
  merchant: Merchant;
  input: NewPayOrder;
  fingerprint: string;
  traceparent: string;
  clientIp: string;
}

function refOf(order: PayOrderRow): VirtualAccountRef {
  return { routeId: order.route_id ?? '', orderNo: order.order_no, upstreamRef: order.upstream_ref ?? '' };
}

export function payOrderService(deps: PayOrderServiceDeps): PayOrderService {
  const { db, logger, upstream } = deps;
  const transitions = { db, logger, subject: deps.subject };

  function payBodyOf(
    order: OpeningRow,
    account: Awaited<ReturnType<Upstream['createVirtualAccount']>>,
    merchantName: string,
  ): string {
    return JSON.stringify({
      clabe: account.clabe,
      bankCode: account.bankCode,
      bankName: account.bankName,
      // The payer sees whom they pay: the merchant, never the channel's own label.
      beneficiaryName: merchantName || account.beneficiaryName,
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
    merchantName: string,
  ): Promise<{ order: PayOrderRow; created: boolean }> {
    let account: Awaited<ReturnType<Upstream['createVirtualAccount']>>;
    try {
      account = await upstream.createVirtualAccount(
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
      payBody: payBodyOf(row, account, merchantName),
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

  /** Inserts the order as being opened by this request; undefined when its key is taken already. */
  async function insertNew(attempt: CreateAttempt): Promise<{ row: OpeningRow; claim: string } | undefined> {
    const { merchant, input } = attempt;
    let fee: number;
    try {
      fee = feeFor(input.amount, merchant.feeRate);
    } catch (err) {
      logger.error({ err, mchNo: merchant.mchNo }, 'merchant fee rate is unusable');
      throw new AppError('INTERNAL_ERROR');
    }
    const claim = randomUUID();
    const row = await insertCreating(
      db,
      {
        mch_no: merchant.mchNo,
        biz_order_no: input.bizOrderNo,
        app_id: merchant.appId,
        title: input.title,
        description: input.description,
        method: input.method,
        limit_pay: input.limitPay,
        amount: input.amount,
        fee,
        real_amount: input.amount - fee,
        status: 'wait',
        settle_status: 'not_settle',
        settle_type: isSettleType(merchant.settleType) ? merchant.settleType : DEFAULT_SETTLE_TYPE,
        expired_time: input.expiredTime ?? null,
        attach: input.attach,
        notify_url: input.notifyUrl,
        return_url: input.returnUrl,
        quit_url: input.quitUrl,
        extra_param: input.extraParam,
        client_ip: attempt.clientIp,
        fingerprint: attempt.fingerprint,
      },
      claim,
      { leaseMs: deps.createLeaseMs, defaultExpiryMs: DEFAULT_EXPIRY_MS },
    );
    return row ? { row, claim } : undefined;
  }

  /**
   * The answer to a request whose key is taken: the existing order if it is the same one and opened;
   * the opening taken over if its owner died; else, while another request opens it, a wait for that.
   * Answers undefined while the opening is still someone else's.
   */
  async function joinExisting(
    attempt: CreateAttempt,
    existing: PayOrderRow,
  ): Promise<{ order: PayOrderRow; created: boolean } | undefined> {
    if (existing.fingerprint !== attempt.fingerprint) throw new AppError('DUPLICATE_ORDER');
    if (existing.opened_at) return { order: existing, created: false };
    const claim = randomUUID();
    const taken = await takeOverCreating(db, existing.order_no, claim, deps.createLeaseMs);
    if (!taken) return undefined;
    logger.warn({ orderNo: taken.order_no }, 'took over an abandoned pay order opening');
    return open(taken, claim, attempt.traceparent, attempt.merchant.name);
  }

  /**
   * Looks the key up until the request has its answer: the order it repeats, or a new one when the key
   * turns out free (its earlier opening failed and was removed). Gives up after the create lease.
   */
  async function settleRepeat(
    attempt: CreateAttempt,
    cancelled: (() => boolean) | undefined,
  ): Promise<{ order: PayOrderRow; created: boolean }> {
    const giveUpAt = Date.now() + deps.createLeaseMs + 1_000;
    let pause = 20;
    for (;;) {
      const existing = await findByBizOrderNo(db, attempt.merchant.mchNo, attempt.input.bizOrderNo);
      if (existing) {
        const answer = await joinExisting(attempt, existing);
        if (answer) return answer;
        if (Date.now() > giveUpAt || cancelled?.()) {
          throw new AppError('SERVICE_UNAVAILABLE', 'order is being created, try again');
        }
        await sleep(pause);
        pause = Math.min(pause * 2, 250);
      } else {
        const problem = checkExpiry(attempt.input.expiredTime, Date.now());
        if (problem) throw problem;
        const opening = await insertNew(attempt);
        // Undefined: another request took the key a moment ago; the next lookup finds its order.
        if (opening) return open(opening.row, opening.claim, attempt.traceparent, attempt.merchant.name);
      }
    }
  }

  async function find(ref: OrderRef): Promise<PayOrderRow> {
    const order = await findMerchantOrder(db, ref.mchNo, {
      orderNo: ref.orderNo,
      bizOrderNo: ref.bizOrderNo,
    });
    if (!order) throw new AppError('ORDER_NOT_FOUND');
    return order;
  }

  return {
    async create(merchant, input, context) {
      const attempt: CreateAttempt = {
        merchant,
        input,
        fingerprint: fingerprintOf(input),
        traceparent: traceparentOr(context.traceparent),
        clientIp: context.clientIp,
      };
      // A new order is the common case, so the insert comes first and the lookup only once the key turns
      // out to be taken (or the request could not make a new order: a repeat of an order whose
      // expiredTime has passed still answers that order). One round trip fewer per pay.
      const opening = checkExpiry(input.expiredTime, Date.now()) ? undefined : await insertNew(attempt);
      if (opening) return open(opening.row, opening.claim, attempt.traceparent, merchant.name);
      return settleRepeat(attempt, context.cancelled);
    },

    async close(ref, useCancel, context) {
      const target = useCancel ? 'cancel' : 'close';
      const order = await find(ref);
      const traceparent = traceparentOr(context.traceparent);
      if (order.status === target) return order;
      if (!isOpen(order.status)) throw new AppError('ORDER_STATUS_FORBIDS');

      // Upstream first: once it says closed, no deposit can land, so the local close cannot be wrong.
      const state = await upstream.closeVirtualAccount(refOf(order), traceparent);
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

    async locate(orderNo) {
      const order = await findOpenedOrder(db, orderNo);
      if (!order) throw new AppError('ORDER_NOT_FOUND');
      return order;
    },

    async sync(ref, context) {
      const order = await find(ref);
      const traceparent = traceparentOr(context.traceparent);
      const state = await upstream.queryVirtualAccount(refOf(order), traceparent);
      const result = await moveOrder(transitions, order.order_no, (current) =>
        decideFromUpstream(current, state, { now: new Date(), traceparent, logger }),
      );
      return { order: result.order, adjust: result.changed };
    },

    async applyNotice(notice) {
      const state: UpstreamState = {
        status: notice.status,
        paidAmount: notice.paidAmount,
        paidAt: notice.paidAt,
        claveRastreo: notice.claveRastreo,
      };
      const traceparent = traceparentOr(notice.traceparent);
      const result = await moveOrder(transitions, notice.orderNo, (current) =>
        decideFromUpstream(current, state, {
          now: new Date(),
          traceparent,
          noticeId: notice.noticeId || undefined,
          logger,
        }),
      );
      if (!result.changed) {
        logger.info(
          { orderNo: notice.orderNo, noticeId: notice.noticeId, status: result.order.status },
          'upstream payment notice changed nothing',
        );
      }
      return result;
    },
  };
}
