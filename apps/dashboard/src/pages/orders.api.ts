import {
  type ApiClient,
  orderPage,
  orderView,
  type Query,
  resentDelivery,
  transferPage,
  transferView,
} from '@agentpay/ui';

// The dashboard's orders and transfers (/dashboard/api, docs/console.md "Orders and transfers"), scoped by
// the server to the signed-in person's merchant: no merchant number is ever sent. The answers' schemas are
// the console's (packages/ui/src/orders.tsx).

const enc = encodeURIComponent;

/** The permission table's name of the resend action (useMay). */
export const MAY_RESEND = 'POST /dashboard/api/deliveries/:id/resend';

export function ordersApi(client: ApiClient) {
  return {
    orders: (query: Query) => client.get('/dashboard/api/orders', orderPage, query),
    order: (orderNo: string) => client.get(`/dashboard/api/orders/${enc(orderNo)}`, orderView),
    transfers: (query: Query) => client.get('/dashboard/api/transfers', transferPage, query),
    transfer: (transferNo: string) => client.get(`/dashboard/api/transfers/${enc(transferNo)}`, transferView),
    resend: (deliveryId: string) =>
      client.send('POST', `/dashboard/api/deliveries/${enc(deliveryId)}/resend`, undefined, resentDelivery),
  };
}
export type OrdersApi = ReturnType<typeof ordersApi>;
