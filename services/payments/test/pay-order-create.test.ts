import { randomUUID } from 'node:crypto';
import { call } from '@agentpay/proto';
import { AppError, formatWireTime } from '@agentpay/wire';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../src/pay-orders/pay-order.state-machine.js';
import { codeOf, merchantOf, TIME_ZONE, usePayments } from './support/payments.js';

// Creating an order (idempotent, concurrent, its expiredTime checked against a clock the test moves),
// reading it back, and the transition table the database enforces.

const t = usePayments();
const { MCH, create, get, createdOrder, payRequest, applyPaid, eventsOf } = t;

describe('CreatePayOrder', () => {
  it('creates a wait order with fee, settlement fields and a payBody, and emits no event', async () => {
    const expired = new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000 + 3_600_000);
    const order = await createdOrder({ amount: 10_050, expired_time: expired.toISOString() });
    expect(order.order_no).toMatch(/^P\d{14}\d{12}$/);
    expect(order).toMatchObject({
      status: 'wait',
      mch_no: MCH,
      app_id: 'app1',
      amount: '10050',
      // 2.5 % of 100.50 = 2.5125 → 251 centavos, plus 3.00 fixed
      fee: '551',
      real_amount: '9499',
      settle_status: 'not_settle',
      settle_type: 'D+2',
      expired_time: expired.toISOString(),
      pay_time: '',
      version: '1',
    });
    expect(JSON.parse(order.pay_body)).toEqual({
      clabe: expect.stringMatching(/^\d{18}$/),
      bankCode: '90646',
      bankName: 'STP',
      beneficiaryName: 'Agentpay Test',
      amount: 100.5,
      expiredTime: formatWireTime(expired, TIME_ZONE),
      reference: expect.any(String),
    });
    expect(Object.keys(JSON.parse(order.pay_body))).toEqual([
      'clabe',
      'bankCode',
      'bankName',
      'beneficiaryName',
      'amount',
      'expiredTime',
      'reference',
    ]);
    expect(await eventsOf(order.order_no)).toEqual([]);
  });

  it('defaults expiredTime to 24 hours after creation', async () => {
    const order = await createdOrder();
    const hours = (Date.parse(order.expired_time) - Date.parse(order.created_at)) / 3_600_000;
    expect(hours).toBe(24);
  });

  it('numbers orders so that later orders sort after earlier ones', async () => {
    const first = await createdOrder();
    const second = await createdOrder();
    expect(second.order_no > first.order_no).toBe(true);
  });

  it('answers an identical repeat with the same order and no second upstream call', async () => {
    const request = payRequest();
    const first = await create(request);
    const again = await create({ ...request, merchant: { ...merchantOf(MCH), app_id: 'other-app' } });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.order).toEqual(first.order);
    expect(t.router.createCalls.get(first.order!.order_no)).toBe(1);
  });

  it('answers a repeat with its order even after the expiredTime it names has passed', async () => {
    const request = payRequest({ expired_time: new Date(t.clock.now().getTime() + 1_500).toISOString() });
    const first = await create(request);
    t.clock.advance(1_600);
    const again = await create(request);
    expect(again).toEqual({ order: first.order, created: false });
  });

  it('refuses the same bizOrderNo with other parameters as DUPLICATE_ORDER', async () => {
    const request = payRequest();
    await create(request);
    expect(await codeOf(create({ ...request, amount: 10_051 }))).toBe('DUPLICATE_ORDER');
    expect(await codeOf(create({ ...request, attach: 'other' }))).toBe('DUPLICATE_ORDER');
  });

  it('keeps orders of different merchants with the same bizOrderNo apart', async () => {
    const request = payRequest();
    const mine = await create(request);
    const theirs = await create({ ...request, merchant: merchantOf(`${MCH}x`) });
    expect(theirs.order!.order_no).not.toBe(mine.order!.order_no);
  });

  it('creates exactly one order and one upstream call for 10 concurrent identical requests', async () => {
    t.router.createDelayMs = 200;
    try {
      const request = payRequest();
      const before = t.router.totalCreateCalls();
      const results = await Promise.all(Array.from({ length: 10 }, () => create(request)));
      expect(new Set(results.map((r) => r.order!.order_no)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(t.router.totalCreateCalls() - before).toBe(1);
      const rows = await t.db
        .selectFrom('pay_orders')
        .select('order_no')
        .where('biz_order_no', '=', request.biz_order_no!)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      t.router.createDelayMs = 0;
    }
  });

  it('passes the router refusal through and leaves nothing behind, so a retry can succeed', async () => {
    const request = payRequest({ method: 'no_such_method' });
    expect(await codeOf(create(request))).toBe('PAY_METHOD_NOT_AVAILABLE');
    t.router.failNextCreate = new AppError('UPSTREAM_UNAVAILABLE');
    const retry = { ...request, method: 'mex_virtual_account' };
    expect(await codeOf(create(retry))).toBe('UPSTREAM_UNAVAILABLE');
    const rows = await t.db
      .selectFrom('pay_orders')
      .select('order_no')
      .where('biz_order_no', '=', request.biz_order_no!)
      .execute();
    expect(rows).toEqual([]);
    const { order, created } = await create(retry);
    expect(created).toBe(true);
    expect(order!.status).toBe('wait');
  });

  it('lets a repeat take over an opening whose owner died, and the sweep remove one nobody retried', async () => {
    // Simulates a crash between the insert and the upstream answer: the row is still being opened
    // and its owner's lease has run out.
    const abandon = (orderNo: string, agoSeconds: number) =>
      t.db
        .updateTable('pay_orders')
        .set({
          opened_at: null,
          create_claim: randomUUID(),
          create_claim_until: sql<Date>`now() - make_interval(secs => ${agoSeconds})`,
        })
        .where('order_no', '=', orderNo)
        .execute();
    const request = payRequest();
    const first = await createdOrder(request);
    await abandon(first.order_no, 1);
    expect(await codeOf(get(first.order_no))).toBe('ORDER_NOT_FOUND');
    const retried = await create(request);
    expect(retried).toMatchObject({ created: true, order: { order_no: first.order_no, status: 'wait' } });
    expect(t.router.createCalls.get(first.order_no)).toBe(2);

    const forgotten = await createdOrder();
    await abandon(forgotten.order_no, 11);
    await t.payments.sweepExpired();
    const rows = await t.db
      .selectFrom('pay_orders')
      .select('order_no')
      .where('order_no', '=', forgotten.order_no)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses an expiredTime in the past or more than 30 days ahead, naming the field', async () => {
    const past = create(
      payRequest({ expired_time: new Date(t.clock.now().getTime() - 1_000).toISOString() }),
    );
    await expect(past).rejects.toMatchObject({
      codeName: 'INVALID_PARAMETER',
      detail: expect.stringContaining('expiredTime'),
    });
    const far = create(
      payRequest({ expired_time: new Date(t.clock.now().getTime() + 31 * 86_400_000).toISOString() }),
    );
    await expect(far).rejects.toMatchObject({
      codeName: 'INVALID_PARAMETER',
      detail: expect.stringContaining('expiredTime'),
    });
  });
});

describe('GetPayOrder', () => {
  it('finds an order by either identifier or both, and only for its merchant', async () => {
    const order = await createdOrder();
    const ref = { merchant: merchantOf(MCH) };
    expect(await call(t.client, t.client.GetPayOrder, { ...ref, order_no: order.order_no })).toEqual(order);
    expect(await call(t.client, t.client.GetPayOrder, { ...ref, biz_order_no: order.biz_order_no })).toEqual(
      order,
    );
    expect(
      await call(t.client, t.client.GetPayOrder, {
        ...ref,
        order_no: order.order_no,
        biz_order_no: order.biz_order_no,
      }),
    ).toEqual(order);
    const other = await createdOrder();
    expect(
      await codeOf(
        call(t.client, t.client.GetPayOrder, {
          ...ref,
          order_no: order.order_no,
          biz_order_no: other.biz_order_no,
        }),
      ),
    ).toBe('ORDER_NOT_FOUND');
    expect(await codeOf(get(order.order_no, `${MCH}x`))).toBe('ORDER_NOT_FOUND');
  });
});

describe('LocatePayOrder (operators)', () => {
  it('finds an order by its number alone, naming its merchant, and answers ORDER_NOT_FOUND for no order', async () => {
    const order = await createdOrder();
    const located = await call(t.client, t.client.LocatePayOrder, { order_no: order.order_no });
    expect(located).toEqual(order);
    expect(located.mch_no).toBe(MCH);
    expect(await codeOf(call(t.client, t.client.LocatePayOrder, { order_no: `${order.order_no}9` }))).toBe(
      'ORDER_NOT_FOUND',
    );
  });
});

describe('the database', () => {
  it('holds the same transition table as the code', async () => {
    const rows = await t.db.selectFrom('pay_order_transitions').selectAll().execute();
    const fromCode = TRANSITIONS.map((edge) => `${edge.from}->${edge.to}`).sort();
    expect(rows.map((r) => `${r.from_status}->${r.to_status}`).sort()).toEqual(fromCode);
  });

  it('refuses a forbidden status change even from a hand-written update', async () => {
    const order = await createdOrder();
    t.router.deposit(order.order_no);
    await applyPaid(order.order_no);
    await expect(
      t.db
        .updateTable('pay_orders')
        .set({ status: 'wait', version: sql<number>`version + 1` })
        .where('order_no', '=', order.order_no)
        .execute(),
    ).rejects.toThrow(/forbidden pay order transition success -> wait/);
  });
});
