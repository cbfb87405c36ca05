import { type ApiClient, orderCalls, orderDetail } from '@agentpay/ui';
import * as z from 'zod/mini';

// The admin API's orders and transfers as the console calls them (docs/console.md "Orders and transfers"):
// the calls and answers' schemas are shared with the dashboard (packages/ui/src/order-pages.tsx); the paths
// are the console's, and only the console syncs an order with its channel.

/** The permission table's names of the actions the pages offer (useMay). */
export const MAY_SYNC = 'POST /admin/orders/:orderNo/sync';
export const MAY_RESEND = 'POST /admin/deliveries/:id/resend';

export function ordersApi(client: ApiClient) {
  return {
    ...orderCalls(client, '/admin'),
    syncOrder: (orderNo: string) =>
      client.send(
        'POST',
        `/admin/orders/${encodeURIComponent(orderNo)}/sync`,
        undefined,
        z.object({ order: orderDetail }),
      ),
  };
}
export type OrdersApi = ReturnType<typeof ordersApi>;
