import { z } from 'zod';

// The JSON of proto agentpay.events.v1.OrderStatusChanged as the outbox relays publish it: snake_case
// names, int64 as strings. The proto JSON mapping may leave out fields at their default, so every
// optional scalar defaults to '' or '0' here, giving the same shape as the generated `__Output` types.

const text = z
  .string()
  .optional()
  .transform((v) => v ?? '');
const int64 = z
  .union([z.string().regex(/^-?\d+$/, 'an integer'), z.number().int()])
  .optional()
  .transform((v) => (v === undefined ? '0' : String(v)));

const payOrder = z.object({
  order_no: text,
  biz_order_no: text,
  mch_no: text,
  app_id: text,
  title: text,
  description: text,
  method: text,
  limit_pay: text,
  amount: int64,
  fee: int64,
  real_amount: int64,
  status: text,
  settle_status: text,
  settle_type: text,
  settle_time: text,
  pay_time: text,
  close_time: text,
  expired_time: text,
  attach: text,
  notify_url: text,
  pay_body: text,
  created_at: text,
  version: int64,
});

const transfer = z.object({
  transfer_no: text,
  biz_transfer_no: text,
  mch_no: text,
  app_id: text,
  amount: int64,
  fee: int64,
  title: text,
  reason: text,
  payee_type: text,
  payee_account: text,
  payee_name: text,
  payee_code: text,
  status: text,
  finish_time: text,
  attach: text,
  notify_url: text,
  created_at: text,
  version: int64,
});

const base = {
  event_id: z.string().min(1),
  mch_no: z.string().min(1),
  app_id: text,
  order_no: z.string().min(1),
  from_status: text,
  to_status: z.string().min(1),
  version: int64,
  occurred_at: text,
  notify_url: text,
  traceparent: text,
};

/** A status-change event, validated: a pay event carries `pay_order`, a transfer event `transfer`. */
export const orderStatusChanged = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('pay'), pay_order: payOrder }),
  z.object({ ...base, kind: z.literal('transfer'), transfer }),
]);

export type OrderStatusChanged = z.output<typeof orderStatusChanged>;

/** Parses an event's JSON text; throws an Error naming the first problem. */
export function parseOrderStatusChanged(json: string): OrderStatusChanged {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('event is not JSON');
  }
  const result = orderStatusChanged.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new Error(`event ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
}
