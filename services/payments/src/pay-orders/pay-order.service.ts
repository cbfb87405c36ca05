import { createPayOrderClosing } from './pay-order.close.js';
import { createPayOrderCreation } from './pay-order.create.js';
import { createPayOrderListing } from './pay-order.list.js';
import { createNoticeApplication } from './pay-order.notice.js';
import { createPayOrderQueries } from './pay-order.queries.js';
import { createPayOrderSync } from './pay-order.sync.js';
import type { PayOrderDeps } from './pay-order.types.js';

export type { NewPayOrder } from './pay-order.create.js';
export type { OrderListRequest } from './pay-order.list.js';
export type { PaymentNotice } from './pay-order.notice.js';
export type { Merchant, OrderRef, PayOrderDeps, RequestContext } from './pay-order.types.js';

/** Pay orders: the use cases, one per file, put together for the gRPC handlers and the notice consumer. */
export function createPayOrderService(deps: PayOrderDeps) {
  const queries = createPayOrderQueries(deps);
  const listing = createPayOrderListing(deps);
  return {
    create: createPayOrderCreation(deps),
    close: createPayOrderClosing({ ...deps, queries }),
    get: queries.get,
    locate: queries.locate,
    sync: createPayOrderSync({ ...deps, queries }),
    applyNotice: createNoticeApplication(deps),
    list: listing.list,
    history: listing.history,
  };
}

export type PayOrderService = ReturnType<typeof createPayOrderService>;
