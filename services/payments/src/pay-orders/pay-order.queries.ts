import { AppError } from '@agentpay/wire';
import type { PayOrderRow } from '../db/schema.js';
import { findMerchantOrder, findOpenedOrder } from './pay-order.repository.js';
import type { OrderRef, PayOrderDeps } from './pay-order.types.js';

/** GetPayOrder and LocatePayOrder: reading an order, by the merchant or by an operator. */
export function createPayOrderQueries(deps: Pick<PayOrderDeps, 'db'>) {
  const { db } = deps;
  return {
    /** One of the merchant's orders; ORDER_NOT_FOUND when the merchant has no such order. */
    async get(ref: OrderRef): Promise<PayOrderRow> {
      const order = await findMerchantOrder(db, ref.mchNo, {
        orderNo: ref.orderNo,
        bizOrderNo: ref.bizOrderNo,
      });
      if (!order) throw new AppError('ORDER_NOT_FOUND');
      return order;
    },

    /** An opened order by platform number, whatever its merchant (operators' lookups). */
    async locate(orderNo: string): Promise<PayOrderRow> {
      const order = await findOpenedOrder(db, orderNo);
      if (!order) throw new AppError('ORDER_NOT_FOUND');
      return order;
    },
  };
}

export type PayOrderQueries = ReturnType<typeof createPayOrderQueries>;
