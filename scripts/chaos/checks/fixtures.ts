// Small, consistent worlds for the checks' unit tests: one pay order paid by its deposit and one transfer
// paid out, each with its history, outbox event, delivery and callback, as a settled run leaves them.
import { CI_OPTIONS } from '../options.js';
import type { Receipt } from '../records.js';
import type { Snapshot } from '../snapshot.js';
import type { CheckInput } from './input.js';

export const PAY = 'P0001';
export const TRANSFER = 'T0001';
export const MCH = 'M1';
const T0 = 1_700_000_000_000;

export function settledSnapshot(): Snapshot {
  return {
    payOrders: [
      {
        order_no: PAY,
        mch_no: MCH,
        biz_order_no: 'CP-1',
        status: 'success',
        version: 2,
        notify_url: 'http://sink/notify/M1',
        expired_time: new Date(T0 + 86_400_000),
        opened_at: new Date(T0),
        route_id: 'sandbox-default',
      },
    ],
    payHistory: [
      {
        order_no: PAY,
        from_status: 'wait',
        to_status: 'success',
        version: 2,
        cause: 'upstream',
        event_id: 'e1',
      },
    ],
    payEvents: [{ id: 'e1', order_no: PAY, version: '2', to_status: 'success', published: true }],
    transfers: [
      {
        transfer_no: TRANSFER,
        mch_no: MCH,
        biz_transfer_no: 'CT-2',
        status: 'success',
        version: 2,
        notify_url: 'http://sink/notify/M1',
        payee_name: 'Ana Perez',
        submission: 'submitted',
        route_id: 'sandbox-default',
      },
    ],
    transferEvents: [
      {
        id: 'e2',
        order_no: TRANSFER,
        from_status: 'progress',
        to_status: 'success',
        version: '2',
        snapshot_status: 'success',
        published: true,
      },
    ],
    deliveries: [
      {
        id: 'd1',
        event_id: 'e1',
        kind: 'pay',
        order_no: PAY,
        version: 2,
        to_status: 'success',
        status: 'delivered',
        notify_url: 'http://sink/notify/M1',
      },
      {
        id: 'd2',
        event_id: 'e2',
        kind: 'transfer',
        order_no: TRANSFER,
        version: 2,
        to_status: 'success',
        status: 'delivered',
        notify_url: 'http://sink/notify/M1',
      },
    ],
    attempts: [
      { delivery_id: 'd1', outcome: 'success', started_at: new Date(T0 + 1_000) },
      { delivery_id: 'd2', outcome: 'success', started_at: new Date(T0 + 2_000) },
    ],
    accounts: [{ order_ref: PAY, status: 'paid', clabe: '646180000000000001' }],
    payouts: [{ payout_ref: TRANSFER, status: 'succeeded' }],
    deposits: [{ clabe: '646180000000000001', matched: true, account_id: 'a1' }],
    accountIds: [{ id: 'a1', order_ref: PAY }],
    routerAccounts: [
      {
        order_no: PAY,
        route_id: 'sandbox-default',
        clabe: '646180000000000001',
        status: 'paid',
        assigned: false,
      },
    ],
    channelDeposits: [],
    channelPayouts: [
      { route_id: 'sandbox-default', transfer_no: TRANSFER, upstream_ref: 'po_1', clave_rastreo: '' },
    ],
    stpOrders: [],
    stpWebhooks: [],
  };
}

export function receipt(orderNo: string, status: string, overrides: Partial<Receipt> = {}): Receipt {
  return {
    at: T0 + 1_000,
    mchNo: MCH,
    kind: orderNo === TRANSFER ? 'transfer' : 'pay',
    orderNo,
    status,
    deliveryId: orderNo === TRANSFER ? 'd2' : 'd1',
    attempt: 1,
    answer: 'SUCCESS',
    signed: true,
    bodyMchNo: MCH,
    ...overrides,
  };
}

/** A run whose every check passes; tests break one thing in it. */
export function settledInput(overrides: Partial<CheckInput> = {}): CheckInput {
  return {
    options: CI_OPTIONS,
    snap: settledSnapshot(),
    creates: [
      {
        kind: 'pay',
        route: 'sandbox',
        scenario: 'pay-deposit',
        mchNo: MCH,
        bizNo: 'CP-1',
        params: {},
        withNotify: true,
        acceptedAs: [PAY],
        codes: [0],
      },
      {
        kind: 'transfer',
        route: 'sandbox',
        scenario: 'Ana',
        mchNo: MCH,
        bizNo: 'CT-2',
        params: {},
        withNotify: true,
        acceptedAs: [TRANSFER],
        codes: [50003, 0],
      },
    ],
    deposits: [
      {
        route: 'sandbox',
        orderNo: PAY,
        clabe: '646180000000000001',
        amount: 12.5,
        exact: true,
        matched: true,
      },
    ],
    requests: [
      {
        target: 'gateway',
        path: '/gateway/pay',
        mchNo: MCH,
        startedAt: T0,
        endedAt: T0 + 40,
        outcome: 'envelope',
        status: 200,
        code: 0,
      },
    ],
    receipts: [receipt(PAY, 'success'), receipt(TRANSFER, 'success')],
    faults: [],
    unexpected: [],
    finalQueries: [
      { key: `${MCH}|CP-1`, code: 0, number: PAY, status: 'success', outcome: 'envelope' },
      { key: `${MCH}|CT-2`, code: 0, number: TRANSFER, status: 'success', outcome: 'envelope' },
    ],
    ...overrides,
  };
}

export { T0 };
