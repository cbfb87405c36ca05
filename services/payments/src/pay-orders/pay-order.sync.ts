import { traceparentOr } from '@agentpay/proto';
import type { PayOrderRow } from '../db/schema.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import type { PayOrderQueries } from './pay-order.queries.js';
import { moveOrder } from './pay-order.transition.js';
import { type OrderRef, type PayOrderDeps, type RequestContext, refOf } from './pay-order.types.js';

/** SyncPayOrder: asks upstream and applies what it says; `adjust` when the order changed. */
export type SyncPayOrder = (
  ref: OrderRef,
  context: RequestContext,
) => Promise<{ order: PayOrderRow; adjust: boolean }>;

export function createPayOrderSync(deps: PayOrderDeps & { queries: PayOrderQueries }): SyncPayOrder {
  const { db, logger, upstream, clock, queries } = deps;
  const transitions = { db, logger, subject: deps.subject };

  return async (ref, context) => {
    const order = await queries.get(ref);
    const traceparent = traceparentOr(context.traceparent);
    const state = await upstream.queryVirtualAccount(refOf(order), traceparent);
    const result = await moveOrder(transitions, order.order_no, (current) =>
      decideFromUpstream(current, state, { now: clock.now(), traceparent, logger }),
    );
    return { order: result.order, adjust: result.changed };
  };
}
