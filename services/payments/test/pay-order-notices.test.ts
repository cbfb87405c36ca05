import { randomUUID } from 'node:crypto';
import { ackedThrough, publishEvent } from '@agentpay/messaging';
import type { OrderSettled } from '@agentpay/proto';
import { waitFor } from '@agentpay/testing';
import { describe, expect, it } from 'vitest';
import { codeOf, merchantOf, usePayments } from './support/payments.js';

// What upstream reports (payment notices, through the stream) and what the ledger settled, applied to orders.

const t = usePayments();
const {
  MCH,
  get,
  close,
  sync,
  createdOrder,
  publishNotice,
  consumed,
  applyPaid,
  dropped,
  eventsOf,
  historyOf,
  expectConsistentHistory,
} = t;

describe('upstream payment notices', () => {
  it('moves wait to success once, however often the notice comes', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await applyPaid(order.order_no, 'n1');
    const paid = await get(order.order_no);
    await applyPaid(order.order_no, 'n1');
    expect(paid).toMatchObject({ status: 'success', version: '2' });
    expect(paid.pay_time).toBe(t.router.accounts.get(order.order_no)!.paidAt);
    expect(await get(order.order_no)).toEqual(paid);
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
    const [event] = await eventsOf(order.order_no);
    expect(event).toMatchObject({
      kind: 'pay',
      mch_no: MCH,
      app_id: 'app1',
      from_status: 'wait',
      to_status: 'success',
      notify_url: 'http://127.0.0.1:9/notify',
      pay_order: paid,
    });
    const [history] = await historyOf(order.order_no);
    expect(history!.notice_id).toBe('n1');
  });

  it('applies five concurrent copies of a notice as one change', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await Promise.all(Array.from({ length: 5 }, () => applyPaid(order.order_no, 'dup')));
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });

  it('does not apply a payment of another amount', async () => {
    const order = await createdOrder();
    await consumed(
      await publishNotice({ order_no: order.order_no, status: 'success', paid_amount: 1 }, 'wrong-amount'),
    );
    expect((await get(order.order_no)).status).toBe('wait');
    expect(await historyOf(order.order_no)).toEqual([]);
  });

  it('drops a notice for an unknown order after a few tries, and counts it', async () => {
    const before = await dropped('unknown_target');
    await consumed(await publishNotice({ order_no: 'P0', status: 'success' }));
    expect(await dropped('unknown_target')).toBe(before + 1);
  });

  it('keeps a notice that arrives while payments is down in the stream, and applies it on restart', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await t.stop();
    const account = t.router.accounts.get(order.order_no)!;
    const seq = await publishNotice({
      order_no: order.order_no,
      status: 'success',
      paid_amount: account.paidAmount,
      paid_at: account.paidAt,
    });
    await t.start();
    await consumed(seq);
    expect(await get(order.order_no)).toMatchObject({ status: 'success', version: '2' });
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });

  it('drops a malformed notice at once, and counts it', async () => {
    const before = await dropped('unreadable');
    await consumed(await publishNotice({ order_no: 'P1', status: 'paid-maybe' }));
    expect(await dropped('unreadable')).toBe(before + 1);
  });
});

describe('the SPEI tracking key (claveRastreo)', () => {
  it("shows the paying deposit's key from its notice in the query and the success event, and keeps it", async () => {
    const order = await createdOrder();
    expect(order.clave_rastreo).toBe('');
    t.router.deposit(order.order_no, 'AGPNOTICE0000000001');
    await applyPaid(order.order_no, 'key-1');
    const paid = await get(order.order_no);
    expect(paid).toMatchObject({ status: 'success', clave_rastreo: 'AGPNOTICE0000000001' });
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toEqual(paid);

    // A later notice and a later query answer without a key leave the known one alone.
    const account = t.router.accounts.get(order.order_no)!;
    account.claveRastreo = '';
    await applyPaid(order.order_no, 'key-2');
    expect(await sync(order.order_no)).toMatchObject({
      adjust: false,
      order: { clave_rastreo: 'AGPNOTICE0000000001' },
    });
    expect(await get(order.order_no)).toEqual(paid);
  });

  it('takes the key from a sync answer that finds the order paid', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no, 'AGPSYNC00000000001');
    const synced = await sync(order.order_no);
    expect(synced).toMatchObject({
      adjust: true,
      order: { status: 'success', clave_rastreo: 'AGPSYNC00000000001' },
    });
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order!.clave_rastreo).toBe('AGPSYNC00000000001');
  });

  it('takes the key from a close answer that finds the order paid', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no, 'AGPCLOSE0000000001');
    expect(await codeOf(close(order.order_no))).toBe('ORDER_ALREADY_PAID');
    expect(await get(order.order_no)).toMatchObject({
      status: 'success',
      clave_rastreo: 'AGPCLOSE0000000001',
    });
  });

  it('leaves the key empty when the channel paid without one', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no, '');
    await applyPaid(order.order_no);
    expect(await get(order.order_no)).toMatchObject({ status: 'success', clave_rastreo: '' });
  });
});

describe('settlement', () => {
  /** Publishes the ledger's OrderSettled for an order and waits until payments has acked it. */
  async function publishSettled(orderNo: string, settleTime: string): Promise<void> {
    const event: OrderSettled & { event_id: string } = {
      event_id: randomUUID(),
      mch_no: MCH,
      order_no: orderNo,
      biz_order_no: 'unused',
      settle_type: 'D+2',
      settle_time: settleTime,
      real_amount: '0',
    };
    const seq = await publishEvent(t.nc, `${t.prefix}.events.ledger.order_settled`, event);
    await waitFor(async () => (await ackedThrough(t.nc, t.stream, 'payments-settled')) >= seq, {
      message: `settlement ${seq} recorded`,
    });
  }

  it('settles a REALTIME order in its change to success, at its pay time, so the success event shows it', async () => {
    const order = await createdOrder({ merchant: { ...merchantOf(MCH), settle_type: 'REALTIME' } });
    expect(order).toMatchObject({ settle_type: 'REALTIME', settle_status: 'not_settle', settle_time: '' });
    t.router.deposit(order.order_no);
    await applyPaid(order.order_no);
    const paid = await get(order.order_no);
    expect(paid).toMatchObject({ status: 'success', settle_status: 'settled' });
    expect(paid.settle_time).toBe(paid.pay_time);
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toMatchObject({ settle_status: 'settled', settle_time: paid.pay_time });
  });

  it('records the ledger settlement of a D+N order without a status change, version or event, once', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await applyPaid(order.order_no);
    const paid = await get(order.order_no);
    expect(paid.settle_status).toBe('not_settle');
    await publishSettled(order.order_no, '2026-11-25T06:00:00.000Z');
    const settled = await get(order.order_no);
    expect(settled).toEqual({ ...paid, settle_status: 'settled', settle_time: '2026-11-25T06:00:00.000Z' });
    // A redelivery (or a second event) changes nothing.
    await publishSettled(order.order_no, '2026-11-26T06:00:00.000Z');
    expect(await get(order.order_no)).toEqual(settled);
    expect((await eventsOf(order.order_no)).map((e) => e.to_status)).toEqual(['success']);
  });

  it('shows the settlement in the events of later changes', async () => {
    const order = await createdOrder();
    await publishSettled(order.order_no, '2026-11-25T06:00:00.000Z');
    await close(order.order_no);
    const [event] = await eventsOf(order.order_no);
    expect(event!.pay_order).toMatchObject({ status: 'close', settle_status: 'settled' });
  });
});
