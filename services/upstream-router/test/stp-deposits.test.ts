import { randomBytes } from 'node:crypto';
import { call } from '@agentpay/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clabeOf } from '../src/accounts/clabe-allocator.js';
import { bindMerchant } from '../src/routes/route.repository.js';
import { type ChannelStack, startChannelStack } from './channel-stack.js';

// STP deposits decided by the router (CONTRACT.md section 16 "Deposits and orders"): what stays, what goes
// back, and the races that could pay an order twice or reuse a CLABE. Through the router's main and the
// sandbox's STP face.

const MCH = 'M_STP_DEPOSITS';
const PREFIX = '6461805555';
let stack: ChannelStack;

const no = (label: string) => `${label}${randomBytes(6).toString('hex').toUpperCase()}`;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function createVa(orderNo: string, amount = '10050') {
  return call(stack.client, stack.client.CreateVirtualAccount, {
    mch_no: MCH,
    method: 'mex_virtual_account',
    order_no: orderNo,
    amount,
    expired_time: new Date(Date.now() + 3_600_000).toISOString(),
  });
}

interface Answer {
  id: number;
  claveRastreo: string;
  answer: string;
}

const pay = (clabe: string, pesos: number) =>
  stack.sandboxCall<Answer>('/sandbox/deposits', { clabe, amount: pesos });

/** What the router recorded for a deposit, by its STP id. */
const recorded = (id: number) =>
  stack.db.selectFrom('channel_deposits').selectAll().where('deposit_id', '=', String(id)).executeTakeFirst();

beforeAll(async () => {
  stack = await startChannelStack('stp_deposits');
  await bindMerchant(stack.db, 'stp-default', MCH);
});

afterAll(async () => {
  await stack?.stop();
});

describe('STP deposits', () => {
  it('screens the payer once; a blocked-list hit is returned (cause 2), books nothing; screening down is 503', async () => {
    const orderNo = no('OBLK');
    const va = await createVa(orderNo);
    stack.compliance.onScreen = async () => ({ outcome: 'hit', hold: true, case_id: 'cas_1' });
    const answer = await stack.sandboxCall<Answer>('/sandbox/deposits', {
      clabe: va.clabe,
      amount: 100.5,
      senderName: 'PEREZ LOPEZ JUAN',
    });
    expect(answer.answer).toBe('devolver');
    const order = await stack.sandboxCall<{ causaDevolucion: unknown }>(`/sandbox/stp/orders/${answer.id}`);
    expect(String(order.causaDevolucion)).toBe('2');
    expect(await recorded(answer.id)).toMatchObject({
      decision: 'returned',
      reason: 'blocked_payer',
      order_no: '',
    });
    const screened = stack.compliance.screens.filter((s) => s.clave_rastreo === answer.claveRastreo);
    expect(screened).toEqual([
      expect.objectContaining({
        operation_kind: 'deposit',
        name: 'PEREZ LOPEZ JUAN',
        amount: '10050',
        open_case: true,
      }),
    ]);
    // Nothing reached payments: the account is still open, the order unpaid.
    expect(stack.notices.payments(orderNo)).toEqual([]);

    // Screening cannot answer: STP is told to ask again, and nothing is recorded.
    stack.compliance.onScreen = async () => {
      throw new Error('down');
    };
    const down = await stack.sandboxCall<Answer>('/sandbox/deposits', { clabe: va.clabe, amount: 100.5 });
    expect(down.answer).toBe('pending');
    expect(await recorded(down.id)).toBeUndefined();
    stack.compliance.onScreen = async () => ({ outcome: 'clear', hold: false });
  });

  it('returns a deposit to a CLABE no order has (cause 1), recording it and passing nothing on', async () => {
    const clabe = clabeOf(PREFIX, 9_999_998);
    const answer = await pay(clabe, 10);
    expect(answer.answer).toBe('devolver');
    const order = await stack.sandboxCall<{ estado: string; causaDevolucion: unknown }>(
      `/sandbox/stp/orders/${answer.id}`,
    );
    expect(order).toMatchObject({ estado: 'D' });
    expect(String(order.causaDevolucion)).toBe('1');
    expect(await recorded(answer.id)).toMatchObject({
      decision: 'returned',
      reason: 'unknown_account',
      order_no: '',
    });
  });

  it('returns a deposit of another amount (cause 13) and keeps the order waiting for the right one', async () => {
    const orderNo = no('P');
    const va = await createVa(orderNo);
    const wrong = await pay(va.clabe, 100.49);
    expect(wrong.answer).toBe('devolver');
    expect(await recorded(wrong.id)).toMatchObject({ reason: 'amount_mismatch' });
    const ref = { route_id: 'stp-default', order_no: orderNo, upstream_ref: va.upstream_ref };
    expect((await call(stack.client, stack.client.QueryVirtualAccount, ref)).status).toBe('wait');

    const right = await pay(va.clabe, 100.5);
    expect(right.answer).toBe('confirmar');
    expect(await call(stack.client, stack.client.QueryVirtualAccount, ref)).toMatchObject({
      status: 'success',
      paid_amount: '10050',
      clave_rastreo: right.claveRastreo,
    });
    expect(stack.notices.payments(orderNo)).toHaveLength(1);
  });

  it('returns a deposit that arrives after the order expired, even before the order is closed', async () => {
    const orderNo = no('P');
    const va = await createVa(orderNo, '4000');
    await stack.db
      .updateTable('virtual_accounts')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('order_no', '=', orderNo)
      .execute();
    const late = await pay(va.clabe, 40);
    expect(late.answer).toBe('devolver');
    expect(await recorded(late.id)).toMatchObject({ reason: 'order_not_open' });
    expect(stack.notices.payments(orderNo)).toHaveLength(0);
  });

  it('two exact deposits racing for one order: one stays, the other goes back, one notice', async () => {
    const orderNo = no('P');
    const va = await createVa(orderNo, '5000');
    const answers = await Promise.all([pay(va.clabe, 50), pay(va.clabe, 50), pay(va.clabe, 50)]);
    expect(answers.map((a) => a.answer).sort()).toEqual(['confirmar', 'devolver', 'devolver']);
    await settle(300);
    const [notice, ...more] = stack.notices.payments(orderNo);
    expect(more).toHaveLength(0);
    expect(notice?.payment?.clave_rastreo).toBe(answers.find((a) => a.answer === 'confirmar')?.claveRastreo);
  });

  it('a deposit racing the close of its order: either it paid and the close says paid, or it went back', async () => {
    for (let i = 0; i < 5; i++) {
      const orderNo = no('P');
      const va = await createVa(orderNo, '700');
      const ref = { route_id: 'stp-default', order_no: orderNo, upstream_ref: va.upstream_ref };
      const [deposit, closed] = await Promise.all([
        pay(va.clabe, 7),
        call(stack.client, stack.client.CloseVirtualAccount, ref),
      ]);
      if (deposit.answer === 'confirmar') expect(closed.status).toBe('success');
      else {
        expect(deposit.answer).toBe('devolver');
        expect(closed.status).toBe('close');
      }
    }
  });

  it('refuses an abono naming another company, and one whose amount is not what STP recorded', async () => {
    const orderNo = no('P');
    const va = await createVa(orderNo, '300');
    const real = await stack.sandboxCall<{ body: Record<string, unknown> }>(
      `/sandbox/stp/abonos/${(await pay(clabeOf(PREFIX, 9_999_997), 3)).id}/resend`,
      {},
    );
    const post = (body: Record<string, unknown>) =>
      fetch(`${stack.noticeUrl}/notices/stp-default/abono`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // STP's own record of that deposit says 3 pesos to another CLABE: pointed at this order, it is not STP's.
    const tampered = await post({ ...real.body, id: 555_000_001, cuentaBeneficiario: va.clabe });
    expect(tampered.status).toBe(403);
    const otherCompany = await post({ ...real.body, id: 555_000_002, empresa: 'OTRA' });
    expect(otherCompany.status).toBe(403);
    expect(stack.notices.payments(orderNo)).toHaveLength(0);
  });
});

describe('CLABEs the router assigns', () => {
  it('never gives one CLABE to two orders, however many open at once', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, () => createVa(no('P'))));
    const clabes = created.map((va) => va.clabe);
    expect(new Set(clabes).size).toBe(40);
    for (const clabe of clabes) expect(clabe.startsWith(PREFIX)).toBe(true);
  });

  it("keeps an ended order's CLABE out of use through its quarantine, even when the numbers come round", async () => {
    const orderNo = no('P');
    const va = await createVa(orderNo);
    await call(stack.client, stack.client.CloseVirtualAccount, {
      route_id: 'stp-default',
      order_no: orderNo,
      upstream_ref: va.upstream_ref,
    });
    // The cursor comes round to the closed account's number.
    const number = Number(va.clabe.slice(10, 17));
    await stack.db
      .updateTable('clabe_cursors')
      .set({ next_number: number })
      .where('route_id', '=', 'stp-default')
      .execute();
    const next = await createVa(no('P'));
    expect(next.clabe).not.toBe(va.clabe);
    expect(next.clabe).toBe(clabeOf(PREFIX, number + 1));
    // A deposit meant for the old order still goes back, and pays nobody.
    expect((await pay(va.clabe, 100.5)).answer).toBe('devolver');
  });

  it("never assigns the company's own account", async () => {
    await stack.db
      .updateTable('clabe_cursors')
      .set({ next_number: 0 })
      .where('route_id', '=', 'stp-default')
      .execute();
    const va = await createVa(no('P'));
    expect(clabeOf(PREFIX, 0)).toBe('646180555500000009');
    expect(va.clabe).not.toBe('646180555500000009');
    expect(va.clabe.startsWith(PREFIX)).toBe(true);
  });
});
