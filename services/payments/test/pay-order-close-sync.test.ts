import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { codeOf, usePayments } from './support/payments.js';

// Closing or cancelling an order, syncing it with upstream, and a close racing a deposit.

const t = usePayments();
const { get, close, sync, createdOrder, applyPaid, expectConsistentHistory } = t;

describe('ClosePayOrder', () => {
  it('closes, answers OK to the same close again, and refuses a cancel afterwards', async () => {
    const order = await createdOrder();
    const closed = await close(order.order_no);
    expect(closed.order).toMatchObject({ status: 'close', version: '2' });
    expect(closed.order!.close_time).not.toBe('');
    expect(t.router.accounts.get(order.order_no)!.status).toBe('close');
    expect((await close(order.order_no)).order!.status).toBe('close');
    expect(await codeOf(close(order.order_no, true))).toBe('ORDER_STATUS_FORBIDS');
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->close']);
  });

  it('cancels with useCancel', async () => {
    const order = await createdOrder();
    expect((await close(order.order_no, true)).order!.status).toBe('cancel');
    expect((await close(order.order_no, true)).order!.status).toBe('cancel');
    expect(await codeOf(close(order.order_no))).toBe('ORDER_STATUS_FORBIDS');
  });

  it('refuses to close a paid order', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await applyPaid(order.order_no);
    expect(await codeOf(close(order.order_no))).toBe('ORDER_STATUS_FORBIDS');
  });

  it('answers ORDER_ALREADY_PAID and marks the order paid when upstream reports the payment', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    expect(await codeOf(close(order.order_no))).toBe('ORDER_ALREADY_PAID');
    expect((await get(order.order_no)).status).toBe('success');
    expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
  });
});

describe('SyncPayOrder', () => {
  it('adjusts once when upstream was paid without a notice, then reports no adjustment', async () => {
    const order = await createdOrder();
    expect(await sync(order.order_no)).toMatchObject({ adjust: false, order: { status: 'wait' } });
    t.router.deposit(order.order_no);
    expect(await sync(order.order_no)).toMatchObject({ adjust: true, order: { status: 'success' } });
    expect(await sync(order.order_no)).toMatchObject({ adjust: false, order: { status: 'success' } });
  });

  it('moves a closed order to success when the money arrived after all', async () => {
    t.router.acceptDepositsWhenClosed = true;
    try {
      const order = await createdOrder();
      await close(order.order_no);
      t.router.deposit(order.order_no);
      expect(await sync(order.order_no)).toMatchObject({ adjust: true, order: { status: 'success' } });
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->close', 'close->success']);
    } finally {
      t.router.acceptDepositsWhenClosed = false;
    }
  });
});

describe('a close racing a deposit', () => {
  it('a close and a deposit racing end in one legal outcome, with one event per change', async () => {
    const outcomes = new Map<string, number>();
    for (const acceptWhenClosed of [false, true]) {
      t.router.acceptDepositsWhenClosed = acceptWhenClosed;
      const orders = await Promise.all(Array.from({ length: 15 }, () => createdOrder()));
      await Promise.all(
        orders.map(async (order) => {
          const [closeCode] = await Promise.all([
            codeOf(close(order.order_no)),
            (async () => {
              // A random head start for the close, so both orders of arrival happen.
              await sleep(Math.random() * 60);
              if (t.router.deposit(order.order_no)) await applyPaid(order.order_no);
            })(),
          ]);
          const path = await expectConsistentHistory(order.order_no);
          const legal: Record<string, string[][]> = {
            SUCCESS: [['wait->close'], ['wait->close', 'close->success']],
            ORDER_ALREADY_PAID: [['wait->success']],
          };
          expect(legal[closeCode]).toContainEqual(path);
          const key = `${closeCode}:${path.join(',')}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }),
      );
    }
    t.router.acceptDepositsWhenClosed = false;
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(30);
  });
});
