import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../snapshot.js';
import { checkConvergence } from './convergence.js';
import { checkExactlyOnce } from './exactly-once.js';
import { PAY, settledInput, settledSnapshot, T0, TRANSFER } from './fixtures.js';
import type { CheckInput } from './input.js';
import { unsettled } from './settled.js';

const CLABE = '646180555500000122';

/** The settled world of fixtures.ts, with its pay order and its transfer on the STP route instead. */
function stpWorld(): { snap: Snapshot; input: CheckInput } {
  const snap = settledSnapshot();
  snap.payOrders[0]!.route_id = 'stp-default';
  snap.transfers[0]!.route_id = 'stp-default';
  snap.accounts = [];
  snap.deposits = [];
  snap.accountIds = [];
  snap.payouts = [];
  snap.routerAccounts = [
    { order_no: PAY, route_id: 'stp-default', clabe: CLABE, status: 'paid', assigned: true },
  ];
  snap.channelDeposits = [
    {
      route_id: 'stp-default',
      deposit_id: '7',
      clabe: CLABE,
      amount: 1250,
      clave_rastreo: 'SBXS1',
      order_no: PAY,
      decision: 'accepted',
      reason: '',
    },
  ];
  snap.channelPayouts = [
    { route_id: 'stp-default', transfer_no: TRANSFER, upstream_ref: '8', clave_rastreo: `AP${TRANSFER}` },
  ];
  const order = {
    monto: 1250,
    nombre_beneficiario: '',
    planned: null,
    answer: null,
    settle_at: null,
    return_at: null,
  };
  snap.stpOrders = [
    {
      ...order,
      id: 7,
      tipo_orden: 'R',
      estado: 'LQ',
      clave_rastreo: 'SBXS1',
      cuenta_beneficiario: CLABE,
      answer: 'confirmar',
    },
    {
      ...order,
      id: 8,
      tipo_orden: 'E',
      estado: 'LQ',
      clave_rastreo: `AP${TRANSFER}`,
      cuenta_beneficiario: '002180000000000001',
      nombre_beneficiario: 'Ana Perez',
      planned: 'liquidate',
    },
  ];
  snap.stpWebhooks = [
    { id: 'w1', order_id: 7, kind: 'abono', delivered: true, gave_up: false },
    { id: 'w2', order_id: 8, kind: 'cambio-estado', delivered: true, gave_up: false },
  ];
  const input = settledInput({ snap });
  for (const c of input.creates) c.route = 'stp';
  input.deposits = [
    {
      route: 'stp',
      orderNo: PAY,
      clabe: CLABE,
      amount: 12.5,
      exact: true,
      matched: true,
      reason: 'confirmar',
    },
  ];
  return { snap, input };
}

describe('the checks over the STP route', () => {
  it('pass a pay order paid by a kept STP deposit and a transfer liquidated at STP', () => {
    const { snap, input } = stpWorld();
    expect(checkExactlyOnce(input)).toEqual([]);
    expect(checkConvergence(input, [], [])).toEqual([]);
    expect(unsettled(snap, T0 + 5_000)).toEqual([]);
  });

  it('wait for an STP order in flight, a deposit not answered and a webhook not delivered', () => {
    const { snap } = stpWorld();
    snap.stpOrders[1]!.estado = 'E';
    snap.stpOrders[0]!.answer = 'pending';
    snap.stpWebhooks[1]!.delivered = false;
    expect(unsettled(snap, T0 + 5_000)).toEqual([
      '1 payouts still in flight at STP',
      '1 STP deposits not answered yet',
      '1 STP webhooks not delivered yet',
    ]);
  });

  it('report a transfer that disagrees with its STP order, a deposit answered one way and recorded another, money kept for an order left open', () => {
    const { snap, input } = stpWorld();
    snap.stpOrders[1]!.estado = 'D';
    snap.channelDeposits[0]!.decision = 'returned';
    snap.payOrders[0]!.status = 'wait';
    expect(checkConvergence(input, [], [])).toEqual([
      `pay ${PAY}: a matched deposit, status wait`,
      `transfer ${TRANSFER} is success, its order at STP D (close)`,
      `STP deposit SBXS1 (1250 centavos to ${CLABE}): the emulator recorded confirmar, the router returned`,
      `STP deposit SBXS1 (1250 centavos to ${CLABE}): kept, but order ${PAY} is wait`,
      `pay ${PAY}: its STP CLABE is paid, the order wait`,
      `pay ${PAY}: the load paid it exactly over STP (first answer confirmar), it is wait`,
    ]);
  });

  it('report an exact deposit sent back and a wrong amount kept', () => {
    const { input } = stpWorld();
    input.deposits = [
      { ...input.deposits[0]!, reason: 'devolver', matched: false },
      { ...input.deposits[0]!, orderNo: 'P0009', exact: false, reason: 'confirmar' },
    ];
    input.snap.payOrders[0]!.status = 'close';
    const violations = checkConvergence(input, [], []);
    expect(violations).toContain(
      `pay ${PAY}: the load paid it exactly over STP (first answer devolver), it is close`,
    );
    expect(violations).toContain('pay P0009: a wrong amount over STP was kept (confirmar)');
  });

  it('report an STP order no transfer names, a transfer paid on both routes, and a CLABE given to two orders', () => {
    const { snap, input } = stpWorld();
    snap.stpOrders.push({ ...snap.stpOrders[1]!, id: 9, clave_rastreo: 'APGHOST' });
    snap.payouts.push({ payout_ref: TRANSFER, status: 'succeeded' });
    snap.routerAccounts.push({ ...snap.routerAccounts[0]!, order_no: 'P0002' });
    const violations = checkExactlyOnce(input);
    expect(violations).toEqual([
      `CLABE ${CLABE} on stp-default assigned to 2 orders`,
      `transfer ${TRANSFER} (success, route stp-default): 1 sandbox payouts, 1 STP orders`,
      `transfer ${TRANSFER} on stp-default: a sandbox payout`,
      "STP order 9 (APGHOST, LQ): no transfer's tracking key names it",
    ]);
  });
});
