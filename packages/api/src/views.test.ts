import type { PayOrder__Output, Transfer__Output } from '@agentpay/proto';
import { canonicalString } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { payOrderView, transferView } from './views.js';

// The gateway's query replies and the notifier's callbacks both render through these views.

const order = {
  order_no: 'P1',
  biz_order_no: 'B1',
  amount: '10050',
  fee: '300',
  real_amount: '9750',
  status: 'success',
  pay_time: '2026-11-22T18:00:00.000Z',
  clave_rastreo: 'AGP20261122000001',
} as PayOrder__Output;

const transfer = {
  transfer_no: 'T1',
  biz_transfer_no: 'BT1',
  amount: '100000',
  fee: '1800',
  status: 'progress',
  clave_rastreo: 'AGPT20261122000001',
} as Transfer__Output;

describe('claveRastreo in the merchant views', () => {
  it("shows a paid order's tracking key, and leaves the field out while the order has none", () => {
    const view = payOrderView(order, 'America/Mexico_City');
    expect(view).toMatchObject({ orderNo: 'P1', status: 'success', claveRastreo: 'AGP20261122000001' });
    expect(canonicalString(view)).toContain('&claveRastreo=AGP20261122000001&');
    const unpaid = payOrderView({ ...order, status: 'wait', pay_time: '', clave_rastreo: '' }, 'UTC');
    expect(unpaid).not.toHaveProperty('claveRastreo');
  });

  it("shows a transfer's tracking key once the channel assigned one, and leaves it out before", () => {
    expect(transferView(transfer, 'UTC')).toMatchObject({
      transferNo: 'T1',
      claveRastreo: 'AGPT20261122000001',
    });
    expect(transferView({ ...transfer, clave_rastreo: '' }, 'UTC')).not.toHaveProperty('claveRastreo');
  });
});
