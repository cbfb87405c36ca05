import { traceparentOr } from '@agentpay/proto';
import type { PayOrderRow } from '../db/schema.js';
import type { Payer, UpstreamState } from '../upstream/router.client.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import { moveOrder } from './pay-order.transition.js';
import type { PayOrderDeps } from './pay-order.types.js';

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
  /** Who paid, as the deposit named them; absent when the channel did not say. */
  payer?: Payer | undefined;
  /** Banxico's CEP page of the deposit, when the channel gave one. */
  cepUrl?: string | undefined;
  /** The notice delivery's trace, continued by the change it causes. */
  traceparent: string;
}

/** Applies a payment notice from upstream; a repeat changes nothing. */
export type ApplyPaymentNotice = (notice: PaymentNotice) => Promise<{ order: PayOrderRow; changed: boolean }>;

export function createNoticeApplication(
  deps: Pick<PayOrderDeps, 'db' | 'logger' | 'subject' | 'clock'>,
): ApplyPaymentNotice {
  const { db, logger, clock } = deps;
  const transitions = { db, logger, subject: deps.subject };

  return async (notice) => {
    const state: UpstreamState = {
      status: notice.status,
      paidAmount: notice.paidAmount,
      paidAt: notice.paidAt,
      claveRastreo: notice.claveRastreo,
      payer: notice.payer,
      cepUrl: notice.cepUrl,
    };
    const traceparent = traceparentOr(notice.traceparent);
    const result = await moveOrder(transitions, notice.orderNo, (current) =>
      decideFromUpstream(current, state, {
        now: clock.now(),
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
  };
}
