import {
  type ApiClient,
  orderDetail,
  orderPage,
  orderView,
  type Query,
  resentDelivery,
  transferPage,
  transferView,
} from '@agentpay/ui';
import * as z from 'zod/mini';

// The admin API's orders and transfers as the console calls them (docs/console.md "Orders and transfers"):
// the answers' schemas are shared with the dashboard (packages/ui/src/orders.tsx); the paths are the console's.

const enc = encodeURIComponent;

/** The permission table's names of the actions the pages offer (useMay). */
export const MAY_SYNC = 'POST /admin/orders/:orderNo/sync';
export const MAY_RESEND = 'POST /admin/deliveries/:id/resend';

export function ordersApi(client: ApiClient) {
  return {
    orders: (query: Query) => client.get('/admin/orders', orderPage, query),
    order: (orderNo: string) => client.get(`/admin/orders/${enc(orderNo)}`, orderView),
    syncOrder: (orderNo: string) =>
      client.send('POST', `/admin/orders/${enc(orderNo)}/sync`, undefined, z.object({ order: orderDetail })),
    transfers: (query: Query) => client.get('/admin/transfers', transferPage, query),
    transfer: (transferNo: string) => client.get(`/admin/transfers/${enc(transferNo)}`, transferView),
    resend: (deliveryId: string) =>
      client.send('POST', `/admin/deliveries/${enc(deliveryId)}/resend`, undefined, resentDelivery),
  };
}
export type OrdersApi = ReturnType<typeof ordersApi>;
