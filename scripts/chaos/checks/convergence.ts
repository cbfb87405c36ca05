import type { ServiceName } from '@agentpay/stack';
import type { CheckInput } from './input.js';

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
  for (const t of snap.transfers) {
    const payout = payouts.get(t.transfer_no);
    if (!payout) {
      if (t.status !== 'fail') out.push(`transfer ${t.transfer_no} is ${t.status}, the channel never had it`);
      continue;
    }
    if (!(expected[payout.status] ?? []).includes(t.status))
      out.push(`transfer ${t.transfer_no} is ${t.status}, its payout upstream ${payout.status}`);
    const rule = t.payee_name.startsWith('REJECT')
      ? 'fail'
      : t.payee_name.startsWith('RETURN')
        ? 'close'
        : 'success';
    if (t.status !== rule)
      out.push(
        `transfer ${t.transfer_no} (${t.payee_name}) ended ${t.status}, the sandbox rule says ${rule}`,
      );
  }
  return out;
}
