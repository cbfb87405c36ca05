import { randomBytes } from 'node:crypto';
import { call, type StatementLine__Output, type UpstreamRouterClient } from '@agentpay/proto';
import { validateClabe } from '@agentpay/spei';
import { waitFor } from '@agentpay/testing';
import { formatWireTime } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { bindMerchant } from '../src/routes/route.repository.js';
import { type ChannelStack, startChannelStack } from './channel-stack.js';

// The channel port's conformance suite: what every adapter must do, run against each adapter through the
// router's own main (gRPC, notice port, Postgres) and the real sandbox process, which speaks the sandbox's
// own protocol and STP's (its second face). A new adapter joins by adding its route to CHANNELS.

/** The tester API's answer to a deposit: the sandbox's own, or the STP face's (`id`, `answer`). */
interface Deposit {
  id?: number;
  answer?: string;
}

interface Channel {
  name: string;
  routeId: string;
  mchNo: string;
  /** A webhook the channel never sent (forged), which the route must refuse with nothing recorded. */
  forge(orderNo: string, clabe: string): Promise<Response>;
  /** Delivers the webhook of a deposit (as the tester API answered it) again. */
  redeliverDeposit(deposit: Deposit, orderNo: string): Promise<void>;
}

let stack: ChannelStack;
let db: Kysely<Database>;
let client: UpstreamRouterClient;
let notices: ChannelStack['notices'];
let noticeUrl: string;

const no = (label: string) => `${label}${randomBytes(6).toString('hex').toUpperCase()}`;
const today = () => formatWireTime(new Date(), 'America/Mexico_City').slice(0, 10);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sandboxCall = <T>(path: string, body?: unknown) => stack.sandboxCall<T>(path, body);

const CHANNELS: Channel[] = [
  {
    name: 'sandbox',
    routeId: 'sandbox-default',
    mchNo: 'M_CONF_SBX',
    forge: (orderNo, clabe) =>
      fetch(`${noticeUrl}/notices/sandbox-default`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': '00'.repeat(32) },
        body: JSON.stringify({
          id: no('ntc_'),
          type: 'virtual_account.paid',
          data: { orderRef: orderNo, clabe, paidAmount: 10050, paidAt: new Date().toISOString() },
        }),
      }),
    async redeliverDeposit(_deposit, orderNo) {
      const { notices: sent } = await sandboxCall<{ notices: { noticeId: string }[] }>(
        `/sandbox/notices?ref=${orderNo}`,
      );
      await sandboxCall(`/sandbox/notices/${sent[0]!.noticeId}/resend`, {});
    },
  },
  {
    name: 'stp',
    routeId: 'stp-default',
    mchNo: 'M_CONF_STP',
    // An abono shaped as STP sends it, for a deposit STP never received: consultaOrden does not find it.
    forge: (_orderNo, clabe) =>
      fetch(`${noticeUrl}/notices/stp-default/abono`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 987654321,
          fechaOperacion: today().replaceAll('-', ''),
          institucionOrdenante: 40012,
          institucionBeneficiaria: 90646,
          claveRastreo: no('FORGED'),
          monto: 100.5,
          nombreOrdenante: 'Mallory',
          tipoCuentaOrdenante: 40,
          cuentaOrdenante: '012180000000000008',
          rfcCurpOrdenante: 'ND',
          nombreBeneficiario: 'AGENTPAY',
          tipoCuentaBeneficiario: 40,
          cuentaBeneficiario: clabe,
          rfcCurpBeneficiario: 'ND',
          conceptoPago: 'PAGO',
          referenciaNumerica: 1,
          empresa: 'AGENTPAY',
          tsLiquidacion: Date.now(),
        }),
      }),
    async redeliverDeposit(deposit) {
      const again = await sandboxCall<{ answer: string }>(`/sandbox/stp/abonos/${deposit.id}/resend`, {});
      // STP's second delivery gets the first one's answer.
      expect(again.answer).toBe(deposit.answer);
    },
  },
];

function createVa(mchNo: string, orderNo: string, amount = '10050') {
  return call(client, client.CreateVirtualAccount, {
    mch_no: mchNo,
    method: 'mex_virtual_account',
    order_no: orderNo,
    amount,
    expired_time: new Date(Date.now() + 3_600_000).toISOString(),
  });
}

function submit(mchNo: string, transferNo: string, payeeName = 'Ana Lopez') {
  return call(client, client.SubmitPayout, {
    mch_no: mchNo,
    transfer_no: transferNo,
    amount: '2500',
    payee_type: 'spei_transfer',
    payee_account: '002010077777777771',
    payee_name: payeeName,
    payee_code: '40002',
    reason: 'conformance',
  });
}

/** Pays `clabe` as a payer would, through the channel's tester API (pesos). */
function pay(clabe: string, pesos: number) {
  return sandboxCall<Deposit>('/sandbox/deposits', { clabe, amount: pesos });
}

async function statementOf(routeId: string, day: string): Promise<StatementLine__Output[]> {
  const lines: StatementLine__Output[] = [];
  const stream = client.StreamStatement({ route_id: routeId, day });
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (line: StatementLine__Output) => lines.push(line));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  return lines;
}

beforeAll(async () => {
  stack = await startChannelStack('conformance');
  ({ db, client, notices, noticeUrl } = stack);
  await db
    .updateTable('routes')
    .set({ merchant_scope: 'list' })
    .where('id', '=', 'sandbox-default')
    .execute();
  for (const channel of CHANNELS) await bindMerchant(db, channel.routeId, channel.mchNo);
});

afterAll(async () => {
  await stack?.stop();
});

describe.each(CHANNELS)('channel port conformance: $name', (channel) => {
  const { routeId, mchNo } = channel;
  const paid = { orderNo: no('P'), clabe: '', transferNo: no('T'), deposit: {} as Deposit };

  it('opens an account on its route with a valid CLABE; one exact deposit pays it, named with its tracking key', async () => {
    const va = await createVa(mchNo, paid.orderNo);
    expect(va.route_id).toBe(routeId);
    expect(validateClabe(va.clabe).ok).toBe(true);
    paid.clabe = va.clabe;
    // A repeated create (a lost answer) is the same account, never a second one.
    expect((await createVa(mchNo, paid.orderNo)).clabe).toBe(va.clabe);

    paid.deposit = await pay(va.clabe, 100.5);
    const [notice] = await waitFor(
      () => notices.payments(paid.orderNo).length > 0 && notices.payments(paid.orderNo),
    );
    expect(notice!.payment).toMatchObject({
      order_no: paid.orderNo,
      status: 'success',
      paid_amount: '10050',
    });
    expect(notice!.payment!.clave_rastreo).toMatch(/^[A-Z0-9]{1,30}$/);
    const state = await call(client, client.QueryVirtualAccount, {
      route_id: routeId,
      order_no: paid.orderNo,
      upstream_ref: va.upstream_ref,
    });
    expect(state).toMatchObject({
      status: 'success',
      paid_amount: '10050',
      clave_rastreo: notice!.payment!.clave_rastreo,
    });
  });

  it('a webhook delivered again gets the first answer and passes nothing on twice', async () => {
    await channel.redeliverDeposit(paid.deposit, paid.orderNo);
    await settle(300);
    expect(notices.payments(paid.orderNo)).toHaveLength(1);
  });

  it('a second deposit to a paid account pays nothing more', async () => {
    await pay(paid.clabe, 100.5);
    await settle(300);
    expect(notices.payments(paid.orderNo)).toHaveLength(1);
  });

  it('closes an open account; a deposit after that pays nothing', async () => {
    const orderNo = no('P');
    const va = await createVa(mchNo, orderNo);
    const closed = await call(client, client.CloseVirtualAccount, {
      route_id: routeId,
      order_no: orderNo,
      upstream_ref: va.upstream_ref,
    });
    expect(closed.status).toBe('close');
    await pay(va.clabe, 100.5);
    await settle(300);
    expect(notices.payments(orderNo)).toHaveLength(0);
  });

  it('refuses a webhook the channel never sent, and records nothing', async () => {
    const orderNo = no('P');
    const va = await createVa(mchNo, orderNo);
    const response = await channel.forge(orderNo, va.clabe);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    await settle(200);
    expect(notices.payments(orderNo)).toHaveLength(0);
    expect(
      (
        await call(client, client.QueryVirtualAccount, {
          route_id: routeId,
          order_no: orderNo,
          upstream_ref: va.upstream_ref,
        })
      ).status,
    ).toBe('wait');
  });

  it('refuses a webhook from outside the allowed callers (or unsigned), recording nothing', async () => {
    const response = await fetch(
      `${noticeUrl}/notices/${routeId}${channel.name === 'stp' ? '/cambio-estado' : ''}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ id: 1, empresa: 'AGENTPAY', estado: 'LQ', tsLiquidacion: Date.now() }),
      },
    );
    expect([401, 403]).toContain(response.status);
  });

  it('sends a payout that settles; its notice names the transfer, and a query answers it with its tracking key', async () => {
    const sent = await submit(mchNo, paid.transferNo);
    expect(sent).toMatchObject({ route_id: routeId, status: 'progress' });
    const [notice] = await waitFor(
      () => notices.payouts(paid.transferNo).length > 0 && notices.payouts(paid.transferNo),
    );
    expect(notice!.payout).toMatchObject({ transfer_no: paid.transferNo, status: 'success' });
    const state = await call(client, client.QueryPayout, {
      route_id: routeId,
      transfer_no: paid.transferNo,
      upstream_ref: sent.upstream_ref,
    });
    expect(state.status).toBe('success');
    expect(state.clave_rastreo).toMatch(/^[A-Z0-9]{1,30}$/);
  });

  it('sending the same transfer again never pays twice', async () => {
    const again = await submit(mchNo, paid.transferNo);
    expect(again.route_id).toBe(routeId);
    await settle(400);
    expect(notices.payouts(paid.transferNo).filter((n) => n.payout?.status === 'success')).toHaveLength(1);
  });

  it('a payout to a payee the bank refuses ends fail', async () => {
    const transferNo = no('T');
    const sent = await submit(mchNo, transferNo, 'REJECT Ana Lopez');
    if (sent.status !== 'fail') {
      const [notice] = await waitFor(
        () => notices.payouts(transferNo).length > 0 && notices.payouts(transferNo),
      );
      expect(notice!.payout!.status).toBe('fail');
    }
  });

  it('a payout the payee bank sends back succeeds, then is returned', async () => {
    const transferNo = no('T');
    expect((await submit(mchNo, transferNo, 'RETURN Ana Lopez')).status).toBe('progress');
    const seen = await waitFor(() => {
      const statuses = notices.payouts(transferNo).map((n) => n.payout!.status);
      return statuses.includes('returned') && statuses;
    });
    expect(seen).toEqual(['success', 'returned']);
  });

  it('a payout the channel never took is fail', async () => {
    const state = await call(client, client.QueryPayout, {
      route_id: routeId,
      transfer_no: no('T'),
      upstream_ref: '',
    });
    expect(state.status).toBe('fail');
  });

  it("the day's statement names the deposit and the payout by the platform's references", async () => {
    const lines = await statementOf(routeId, today());
    expect(lines).toContainEqual(
      expect.objectContaining({
        kind: 'deposit',
        platform_ref: paid.orderNo,
        amount: '10050',
        applied: true,
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ kind: 'payout', platform_ref: paid.transferNo, amount: '2500' }),
    );
    expect(lines.filter((l) => l.kind === 'payout' && l.platform_ref === paid.transferNo)).toHaveLength(1);
  });
});
