import { describe, expect, it } from 'vitest';
import { usePayments } from './support/payments.js';

// The expiry sweep. The test moves the service's clock past the orders' expiredTime instead of waiting.

const t = usePayments();
const { get, sync, createdOrder, applyPaid, expectConsistentHistory } = t;

describe('expiry sweep', () => {
  it('times out an unpaid expired order after closing it upstream, and makes a paid one success', async () => {
    const soon = new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000 + 2_000).toISOString();
    const unpaid = await createdOrder({ expired_time: soon });
    const paid = await createdOrder({ expired_time: soon });
    const later = await createdOrder();
    t.router.deposit(paid.order_no);
    t.clock.advance(Math.max(0, Date.parse(soon) + 50 - t.clock.now().getTime()));
    await t.payments.sweepExpired();
    expect((await get(unpaid.order_no)).status).toBe('timeout');
    expect((await get(unpaid.order_no)).close_time).not.toBe('');
    expect(t.router.accounts.get(unpaid.order_no)!.status).toBe('close');
    expect((await get(paid.order_no)).status).toBe('success');
    expect((await get(later.order_no)).status).toBe('wait');
    expect(await expectConsistentHistory(unpaid.order_no)).toEqual(['wait->timeout']);
    expect(await expectConsistentHistory(paid.order_no)).toEqual(['wait->success']);
    // A second round finds nothing left to do.
    expect(await t.payments.sweepExpired()).toBe(0);
  });

  it('lets two sweeping replicas share expired orders without handling one twice', async () => {
    const soon = new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000 + 2_000).toISOString();
    const orders = await Promise.all(Array.from({ length: 6 }, () => createdOrder({ expired_time: soon })));
    t.clock.advance(Math.max(0, Date.parse(soon) + 50 - t.clock.now().getTime()));
    const [a, b] = await Promise.all([t.payments.sweepExpired(), t.payments.sweepExpired()]);
    expect(a + b).toBe(6);
    for (const order of orders) {
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->timeout']);
    }
  });
});

describe('races with the sweep', () => {
  it('a sync, a notice and the sweep racing on a paid expired order make one change', async () => {
    const soon = new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000 + 2_000).toISOString();
    const orders = await Promise.all(Array.from({ length: 5 }, () => createdOrder({ expired_time: soon })));
    for (const order of orders) t.router.deposit(order.order_no);
    t.clock.advance(Math.max(0, Date.parse(soon) + 50 - t.clock.now().getTime()));
    await Promise.all([
      t.payments.sweepExpired(),
      ...orders.flatMap((order) => [sync(order.order_no), applyPaid(order.order_no)]),
    ]);
    for (const order of orders) {
      expect(await expectConsistentHistory(order.order_no)).toEqual(['wait->success']);
    }
  });
});
