import { payOrderView, refundView, transferView } from '@agentpay/api';
import { type EnvelopeSigner, formatWireTime } from '@agentpay/wire';
import type { OrderStatusChanged } from '../events/order-status-changed.schema.js';

/** The only noticeType the seed defines (section 6). */
export const NOTICE_TYPE = 'order_status_changed';

/**
 * The callback body of the seed's section 6 as signed JSON text. Built and signed once per event, when the
 * event is recorded; every attempt sends these exact bytes, so a retry never carries a new `resTime` or
 * signature and a merchant can compare attempts byte for byte.
 */
export async function buildCallbackBody(
  event: OrderStatusChanged,
  opts: { signer: EnvelopeSigner; timeZone: string; traceId: string; now?: Date },
): Promise<string> {
  const data =
    event.kind === 'pay'
      ? payOrderView(event.pay_order, opts.timeZone)
      : event.transfer.kind === 'refund'
        ? // A refund's callback: the transfer callback's shape with refundNo and orderNo (section 21).
          refundView(event.transfer, opts.timeZone)
        : transferView(event.transfer, opts.timeZone);
  const body: Record<string, unknown> = {
    code: 0,
    msg: 'success',
    data,
    resTime: formatWireTime(opts.now ?? new Date(), opts.timeZone),
    traceId: opts.traceId,
    noticeType: NOTICE_TYPE,
    mchNo: event.mch_no,
  };
  // Empty values are outside the signature anyway (docs/merchant-api.md "Signing"); leaving appId out keeps the body
  // and the signed fields in agreement.
  if (event.app_id) body['appId'] = event.app_id;
  // On the thread pool: a batch of events signs its bodies in parallel, off the event loop.
  return JSON.stringify(await opts.signer.signAsync(body));
}
