import type { ServiceName } from '@agentpay/stack';
import { ROUTE_IDS } from '../records.js';
import type { CheckInput } from './input.js';
import { stpPayouts, transferStatusOfEstado } from './stp.js';

/** Money that arrived is success; payouts agree with the channel; all settled; every service still runs. */
export function checkConvergence(input: CheckInput, stillMoving: string[], down: ServiceName[]): string[] {
  const out: string[] = [...stillMoving.map((m) => `not settled: ${m}`)];
  for (const service of down) out.push(`${service} is not running at the end`);
  const { snap } = input;
  const orderOfAccount = new Map(snap.accountIds.map((a) => [a.id, a.order_ref]));
  const payOrders = new Map(snap.payOrders.map((o) => [o.order_no, o]));
  for (const d of snap.deposits) {
    if (!d.matched || !d.account_id) continue;
    const orderNo = orderOfAccount.get(d.account_id);
    const order = orderNo ? payOrders.get(orderNo) : undefined;
    if (order && order.status !== 'success')
      out.push(`pay ${order.order_no} was paid upstream but is ${order.status}`);
  }
  const exactDeposits = input.deposits.filter((d) => d.exact && d.matched === true);
  for (const d of exactDeposits) {
    const order = payOrders.get(d.orderNo);
    if (order && order.status !== 'success')
      out.push(`pay ${d.orderNo}: a matched deposit, status ${order.status}`);
  }
  const expected: Record<string, string[]> = {
    succeeded: ['success'],
    returned: ['close'],
    failed: ['fail'],
    rejected: ['fail'],
    processing: ['progress'],
  };
  const payouts = new Map(snap.payouts.map((p) => [p.payout_ref, p]));
  const stp = stpPayouts(snap).byTransfer;
  for (const t of snap.transfers) {
    const payout = payouts.get(t.transfer_no);
    const atStp = stp.get(t.transfer_no)?.[0];
    if (payout) {
      if (!(expected[payout.status] ?? []).includes(t.status))
        out.push(`transfer ${t.transfer_no} is ${t.status}, its payout upstream ${payout.status}`);
    } else if (atStp) {
      const implied = transferStatusOfEstado(atStp.estado);
      if (implied !== t.status)
        out.push(`transfer ${t.transfer_no} is ${t.status}, its order at STP ${atStp.estado} (${implied})`);
    } else {
      if (t.status !== 'fail') out.push(`transfer ${t.transfer_no} is ${t.status}, the channel never had it`);
      continue;
    }
    const rule = t.payee_name.startsWith('REJECT')
      ? 'fail'
      : t.payee_name.startsWith('RETURN')
        ? 'close'
        : 'success';
    if (t.status !== rule)
      out.push(
        `transfer ${t.transfer_no} on ${t.route_id} (${t.payee_name}) ended ${t.status}, the tester rule says ${rule}`,
      );
  }
  out.push(...checkStpDeposits(input));
  return out;
}

/**
 * Money in over STP: every deposit the emulator received was answered, the router's decision is the answer
 * the emulator recorded, a kept deposit paid its order and a sent-back one paid nothing. The load's exact
 * deposits (answered, or left to the emulator's retries) paid their orders; its wrong amounts went back.
 */
function checkStpDeposits(input: CheckInput): string[] {
  const out: string[] = [];
  const { snap } = input;
  const payOrders = new Map(snap.payOrders.map((o) => [o.order_no, o]));
  const decisions = new Map(
    snap.channelDeposits
      .filter((d) => d.route_id === ROUTE_IDS.stp)
      .map((d) => [d.clave_rastreo, d] as const),
  );
  for (const r of snap.stpOrders) {
    if (r.tipo_orden !== 'R') continue;
    const label = `STP deposit ${r.clave_rastreo} (${r.monto} centavos to ${r.cuenta_beneficiario})`;
    if (r.answer !== 'confirmar' && r.answer !== 'devolver') {
      out.push(`${label}: never answered (${r.answer}), its money neither kept nor returned`);
      continue;
    }
    const decision = decisions.get(r.clave_rastreo);
    const recorded = decision?.decision === 'accepted' ? 'confirmar' : decision ? 'devolver' : undefined;
    if (recorded !== r.answer)
      out.push(`${label}: the emulator recorded ${r.answer}, the router ${decision?.decision ?? 'nothing'}`);
    if (r.answer === 'confirmar') {
      const order = decision ? payOrders.get(decision.order_no) : undefined;
      if (!order)
        out.push(`${label}: kept for order ${decision?.order_no || '?'}, which is not in the store`);
      else if (order.status !== 'success')
        out.push(`${label}: kept, but order ${order.order_no} is ${order.status}`);
      if (r.estado !== 'LQ') out.push(`${label}: kept, but STP shows it ${r.estado}`);
    } else if (r.estado !== 'D') out.push(`${label}: sent back, but STP shows it ${r.estado}`);
  }
  const paidBy = new Map<string, number>();
  for (const d of snap.channelDeposits)
    if (d.route_id === ROUTE_IDS.stp && d.decision === 'accepted')
      paidBy.set(d.order_no, (paidBy.get(d.order_no) ?? 0) + 1);
  for (const [orderNo, n] of paidBy) if (n > 1) out.push(`pay ${orderNo}: paid by ${n} STP deposits`);
  for (const a of snap.routerAccounts) {
    if (a.route_id !== ROUTE_IDS.stp || a.status !== 'paid') continue;
    const order = payOrders.get(a.order_no);
    if (order?.status !== 'success')
      out.push(`pay ${a.order_no}: its STP CLABE is paid, the order ${order?.status}`);
  }
  for (const d of input.deposits) {
    if (d.route !== 'stp' || d.reason === undefined) continue;
    const order = payOrders.get(d.orderNo);
    if (d.exact && order?.status !== 'success')
      out.push(
        `pay ${d.orderNo}: the load paid it exactly over STP (first answer ${d.reason}), it is ${order?.status}`,
      );
    if (!d.exact && d.reason === 'confirmar')
      out.push(`pay ${d.orderNo}: a wrong amount over STP was kept (confirmar)`);
  }
  return out;
}
