import { randomUUID } from 'node:crypto';
import { isSettleType } from '@agentpay/api';
import { traceparentOr } from '@agentpay/proto';
import { AppError, centavosToAmount, feeFor, formatWireTime, requestFingerprint } from '@agentpay/wire';
import type { PayOrderRow } from '../db/schema.js';
import type { Upstream } from '../upstream/router.client.js';
import {
  deleteCreating,
  findByBizOrderNo,
  insertCreating,
  markOpened,
  type OpeningRow,
  takeOverCreating,
} from './pay-order.repository.js';
import type { Merchant, PayOrderDeps, RequestContext } from './pay-order.types.js';

/** docs/merchant-api.md "Statuses": expiredTime defaults to 24 h after creation and may lie at most 30 days ahead. */
const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;
const MAX_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
const DEFAULT_SETTLE_TYPE = 'D+1';

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

export type CreateContext = RequestContext & { clientIp: string; cancelled?: () => boolean };

/** CreatePayOrder: an order and its virtual account, exactly once per (merchant, bizOrderNo). */
export type CreatePayOrder = (
  merchant: Merchant,
  order: NewPayOrder,
  context: CreateContext,
) => Promise<{ order: PayOrderRow; created: boolean }>;

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

export function createPayOrderCreation(deps: PayOrderDeps): CreatePayOrder {
  const { db, logger, upstream, clock } = deps;
  const nowMs = () => clock.now().getTime();

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
    const giveUpAt = nowMs() + deps.createLeaseMs + 1_000;
    let pause = 20;
    for (;;) {
      const existing = await findByBizOrderNo(db, attempt.merchant.mchNo, attempt.input.bizOrderNo);
      if (existing) {
        const answer = await joinExisting(attempt, existing);
        if (answer) return answer;
        if (nowMs() > giveUpAt || cancelled?.()) {
          throw new AppError('SERVICE_UNAVAILABLE', 'order is being created, try again');
        }
        await clock.sleep(pause);
        pause = Math.min(pause * 2, 250);
      } else {
        const problem = checkExpiry(attempt.input.expiredTime, nowMs());
        if (problem) throw problem;
        const opening = await insertNew(attempt);
        // Undefined: another request took the key a moment ago; the next lookup finds its order.
        if (opening) return open(opening.row, opening.claim, attempt.traceparent, attempt.merchant.name);
      }
    }
  }

  return async (merchant, input, context) => {
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
    const opening = checkExpiry(input.expiredTime, nowMs()) ? undefined : await insertNew(attempt);
    if (opening) return open(opening.row, opening.claim, attempt.traceparent, merchant.name);
    return settleRepeat(attempt, context.cancelled);
  };
}
