import { isTraceparent } from '@agentpay/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshLedger, freshLedger, SETTLED_SUBJECT } from './support/fresh-ledger.js';

// OrderSettled goes out through the one outbox writer (enqueueEvents), so it carries a traceparent like
// every other event: its cause's, or the sweep run's.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_settled_event');
});
afterAll(async () => {
  await t?.drop();
});

const CAUSE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function settledEvent(orderNo: string) {
  const rows = await t.db.selectFrom('outbox').selectAll().where('subject', '=', SETTLED_SUBJECT).execute();
  const row = rows.find((r) => (r.payload as { order_no: string }).order_no === orderNo);
  if (!row) throw new Error(`no OrderSettled for ${orderNo}`);
  return row as typeof row & { payload: { event_id: string; traceparent: string } };
}

describe('OrderSettled', () => {
  it("of a REALTIME pay-in carries its status change's traceparent, as a field and a header, its id the row's", async () => {
    await t.ledger.payIn({
      mchNo: 'M-TP',
      orderNo: 'P-TP-1',
      bizOrderNo: 'B1',
      amount: 1_000,
      fee: 10,
      realAmount: 990,
      settleType: 'REALTIME',
      payTime: new Date('2026-11-20T18:00:00Z'),
      traceparent: CAUSE,
    });
    const row = await settledEvent('P-TP-1');
    expect(row.payload.traceparent).toBe(CAUSE);
    expect(row.headers).toEqual({ traceparent: CAUSE });
    expect(row.id).toBe(row.payload.event_id);
  });

  it("of a sweep run carries that run's new trace, one for all it settles", async () => {
    for (const orderNo of ['P-TP-2', 'P-TP-3']) {
      await t.ledger.payIn({
        mchNo: 'M-TP',
        orderNo,
        bizOrderNo: orderNo,
        amount: 500,
        fee: 0,
        realAmount: 500,
        settleType: 'D+1',
        payTime: new Date('2026-11-20T18:00:00Z'),
      });
    }
    expect(await t.settlement.settleDue(new Date('2026-11-26T06:00:00Z'))).toBeGreaterThanOrEqual(2);
    const [a, b] = [await settledEvent('P-TP-2'), await settledEvent('P-TP-3')];
    expect(isTraceparent(a.payload.traceparent)).toBe(true);
    expect(a.payload.traceparent).not.toBe(CAUSE);
    expect(b.payload.traceparent).toBe(a.payload.traceparent);
    expect(a.headers).toEqual({ traceparent: a.payload.traceparent });
  });
});
