import { traceparentOr } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { PayOrderRow } from '../db/schema.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import type { PayOrderQueries } from './pay-order.queries.js';
import { isOpen } from './pay-order.state-machine.js';
import { moveOrder } from './pay-order.transition.js';
import { type OrderRef, type PayOrderDeps, type RequestContext, refOf } from './pay-order.types.js';

/** ClosePayOrder: closes (or with useCancel, cancels) an open order, upstream first. */
export type ClosePayOrder = (
  ref: OrderRef,
  useCancel: boolean,
  context: RequestContext,
) => Promise<PayOrderRow>;

export function createPayOrderClosing(deps: PayOrderDeps & { queries: PayOrderQueries }): ClosePayOrder {
  const { db, logger, upstream, clock, queries } = deps;
  const transitions = { db, logger, subject: deps.subject };

  return async (ref, useCancel, context) => {
    const target = useCancel ? 'cancel' : 'close';
    const order = await queries.get(ref);
    const traceparent = traceparentOr(context.traceparent);
    if (order.status === target) return order;
    if (!isOpen(order.status)) throw new AppError('ORDER_STATUS_FORBIDS');

    // Upstream first: once it says closed, no deposit can land, so the local close cannot be wrong.
    const state = await upstream.closeVirtualAccount(refOf(order), traceparent);
    const now = clock.now();
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
  };
}
