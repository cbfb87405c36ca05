import { type ApiClient, orderCalls } from '@agentpay/ui';
import * as z from 'zod/mini';

// The dashboard's orders and transfers (/dashboard/api, docs/console.md "Orders and transfers"), scoped by
// the server to the signed-in person's merchant: no merchant number is ever sent. The calls and answers'
// schemas are the console's (packages/ui/src/order-pages.tsx), under the dashboard's prefix; a refund of a
// paid order (CONTRACT section 21) is the dashboard's own.

/** The permission table's name of the resend action (useMay). */
export const MAY_RESEND = 'POST /dashboard/api/deliveries/:id/resend';
/** The permission table's name of a refund (useMay): a merchant `finance`, `admin` or `owner` person. */
export const MAY_REFUND = 'POST /dashboard/api/orders/:orderNo/refunds';

/** A refund as the server answers it: the merchant API's query/refund shape (amounts in pesos). */
const refund = z.looseObject({
  refundNo: z.string(),
  bizRefundNo: z.string(),
  amount: z.number(),
  status: z.string(),
});
export type RefundAnswer = z.infer<typeof refund>;

export function ordersApi(client: ApiClient) {
  return {
    ...orderCalls(client, '/dashboard/api'),
    /** Refunds `amount` pesos (all that is left when absent) of a paid order to its payer; idempotent on the key. */
    refund: (orderNo: string, body: { bizRefundNo: string; amount?: number; reason?: string }) =>
      client.send('POST', `/dashboard/api/orders/${encodeURIComponent(orderNo)}/refunds`, body, refund),
  };
}
export type OrdersApi = ReturnType<typeof ordersApi>;
