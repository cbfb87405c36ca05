import { type ApiClient, orderCalls } from '@agentpay/ui';

// The dashboard's orders and transfers (/dashboard/api, docs/console.md "Orders and transfers"), scoped by
// the server to the signed-in person's merchant: no merchant number is ever sent. The calls and answers'
// schemas are the console's (packages/ui/src/order-pages.tsx), under the dashboard's prefix.

/** The permission table's name of the resend action (useMay). */
export const MAY_RESEND = 'POST /dashboard/api/deliveries/:id/resend';

export function ordersApi(client: ApiClient) {
  return orderCalls(client, '/dashboard/api');
}
export type OrdersApi = ReturnType<typeof ordersApi>;
