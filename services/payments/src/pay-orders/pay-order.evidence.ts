import type { Logger } from '@agentpay/logger';
import type { PayOrderRow } from '../db/schema.js';
import type { UpstreamState } from '../upstream/router.client.js';
import { isOpen } from './pay-order.state-machine.js';
import type { StatusChange } from './pay-order.transition.js';

/**
 * What upstream evidence means for an order. Money that arrived wins over any ended status; a close or
 * failure only ends an order that is still open; a close of an order already past its expiry is its
 * timeout (the channel closed it for the same reason the sweep would have).
 */
export function decideFromUpstream(
  order: PayOrderRow,
  state: UpstreamState,
  context: { now: Date; traceparent: string; noticeId?: string | undefined; logger: Logger },
): StatusChange | undefined {
  const base = { traceparent: context.traceparent, noticeId: context.noticeId };
  switch (state.status) {
    case 'success': {
      if (order.status === 'success') return undefined;
      if (state.paidAmount > 0 && state.paidAmount !== order.amount) {
        // The channel should have kept such a deposit as unmatched; never apply it to the order.
        context.logger.error(
          { orderNo: order.order_no, amount: order.amount, paidAmount: state.paidAmount },
          'upstream reports a payment of another amount; not applied',
        );
        return undefined;
      }
      const paidAt = state.paidAt && !Number.isNaN(state.paidAt.getTime()) ? state.paidAt : context.now;
      return {
        ...base,
        to: 'success',
        cause: 'upstream',
        set: {
          pay_time: paidAt,
          paid_amount: state.paidAmount || order.amount,
          // An answer without a key never blanks one the order has (none can have one before it is paid).
          ...(state.claveRastreo ? { clave_rastreo: state.claveRastreo } : {}),
          ...(state.payer?.account
            ? {
                payer_account: state.payer.account,
                payer_name: state.payer.name,
                payer_bank: state.payer.bank,
                payer_rfc: state.payer.rfc,
              }
            : {}),
          ...(state.cepUrl ? { cep_url: state.cepUrl } : {}),
        },
      };
    }
    case 'close':
      if (!isOpen(order.status)) return undefined;
      return order.expired_time.getTime() <= context.now.getTime()
        ? { ...base, to: 'timeout', cause: 'expiry', set: { close_time: context.now } }
        : { ...base, to: 'close', cause: 'upstream', set: { close_time: context.now } };
    case 'fail':
      if (!isOpen(order.status)) return undefined;
      return { ...base, to: 'fail', cause: 'upstream' };
    case 'wait':
      return undefined;
    default: {
      const unreachable: never = state.status;
      return unreachable;
    }
  }
}
