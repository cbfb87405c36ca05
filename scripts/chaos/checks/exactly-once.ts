import { ROUTE_IDS } from '../records.js';
import type { Snapshot } from '../snapshot.js';
import { tally } from '../tally.js';
import type { CheckInput } from './input.js';
import { stpPayouts } from './stp.js';

export function checkExactlyOnce(input: CheckInput): string[] {
  const out: string[] = [...input.unexpected.map((u) => `unexpected answer: ${u}`)];
  const { snap } = input;
  const payByBiz = new Map<string, Snapshot['payOrders']>();
  for (const o of snap.payOrders) {
    const key = `${o.mch_no}|${o.biz_order_no}`;
    payByBiz.set(key, [...(payByBiz.get(key) ?? []), o]);
  }
  const transferByBiz = new Map<string, Snapshot['transfers']>();
  for (const t of snap.transfers) {
    const key = `${t.mch_no}|${t.biz_transfer_no}`;
    transferByBiz.set(key, [...(transferByBiz.get(key) ?? []), t]);
  }
  const attempted = new Set(input.creates.map((c) => `${c.mchNo}|${c.bizNo}`));
  const queries = new Map(input.finalQueries.map((q) => [q.key, q]));
  for (const c of input.creates) {
    const key = `${c.mchNo}|${c.bizNo}`;
    const rows = (c.kind === 'pay' ? payByBiz.get(key) : transferByBiz.get(key)) ?? [];
    const numbers = new Set(c.acceptedAs);
    if (numbers.size > 1) out.push(`${c.kind} ${key}: accepted as ${[...numbers].join(' and ')}`);
    if (rows.length > 1) out.push(`${c.kind} ${key}: ${rows.length} rows in the store`);
    if (c.acceptedAs.length === 0) continue;
    const accepted = c.acceptedAs[0]!;
    if (rows.length === 0) {
      out.push(`${c.kind} ${key}: accepted as ${accepted} but not in the store`);
      continue;
    }
    const number = 'order_no' in rows[0]! ? rows[0].order_no : rows[0]!.transfer_no;
    if (number !== accepted) out.push(`${c.kind} ${key}: accepted as ${accepted}, stored as ${number}`);
    const query = queries.get(key);
    if (query?.code !== 0 || query.number !== accepted) {
      out.push(`${c.kind} ${key}: the gateway query answered ${JSON.stringify(query)}`);
    } else if (query.status !== rows[0]!.status) {
      out.push(`${c.kind} ${key}: the gateway shows ${query.status}, the store ${rows[0]!.status}`);
    }
    if (c.codes.some((code) => code === 30002 || code === 40003))
      out.push(`${c.kind} ${key}: an identical retry was refused as a duplicate (${c.codes.join(',')})`);
  }
  for (const key of [...payByBiz.keys(), ...transferByBiz.keys()]) {
    if (!attempted.has(key)) out.push(`${key}: in the store but never requested`);
  }
  // One upstream object per order, on the route that holds it: one virtual account per opened pay order
  // (the sandbox opens them; on STP the router assigns the CLABE and is the account's record), one payout
  // per transfer (a sandbox payout, or an E order at STP under the transfer's tracking key).
  const accountsByRef = tally(snap.accounts, (a) => a.order_ref);
  const routerAccounts = tally(snap.routerAccounts, (a) => `${a.route_id}|${a.order_no}`);
  for (const o of snap.payOrders) {
    if (!o.opened_at) continue;
    if (o.route_id === ROUTE_IDS.stp) {
      if (routerAccounts[`${o.route_id}|${o.order_no}`] !== 1)
        out.push(
          `pay order ${o.order_no} on ${o.route_id}: ${routerAccounts[`${o.route_id}|${o.order_no}`] ?? 0} CLABEs assigned by the router`,
        );
      if (accountsByRef[o.order_no])
        out.push(`pay order ${o.order_no} on ${o.route_id}: a sandbox account too`);
    } else if (accountsByRef[o.order_no] !== 1)
      out.push(`pay order ${o.order_no}: ${accountsByRef[o.order_no] ?? 0} virtual accounts upstream`);
  }
  // A CLABE belongs to one order (CONTRACT.md 16, "Deposits and orders").
  for (const [key, n] of Object.entries(
    tally(
      snap.routerAccounts.filter((a) => a.route_id === ROUTE_IDS.stp),
      (a) => a.clabe,
    ),
  ))
    if (n > 1) out.push(`CLABE ${key} on ${ROUTE_IDS.stp} assigned to ${n} orders`);
  const payoutsByRef = tally(snap.payouts, (p) => p.payout_ref);
  const stp = stpPayouts(snap);
  for (const t of snap.transfers) {
    const sandbox = payoutsByRef[t.transfer_no] ?? 0;
    const atStp = stp.byTransfer.get(t.transfer_no)?.length ?? 0;
    const payouts = sandbox + atStp;
    // No payout is right for a transfer whose submission never reached the channel: reconciliation
    // then fails it (the channel denies knowing it), and no money left. On STP a payee refused at once
    // (REJECT: −7) leaves no order either.
    if (payouts > 1 || (payouts === 0 && t.status !== 'fail'))
      out.push(
        `transfer ${t.transfer_no} (${t.status}, route ${t.route_id}): ${sandbox} sandbox payouts, ${atStp} STP orders`,
      );
    if (atStp > 0 && t.route_id !== ROUTE_IDS.stp)
      out.push(`transfer ${t.transfer_no} on ${t.route_id}: an order at STP`);
    if (sandbox > 0 && t.route_id === ROUTE_IDS.stp)
      out.push(`transfer ${t.transfer_no} on ${t.route_id}: a sandbox payout`);
  }
  const transferNos = new Set(snap.transfers.map((t) => t.transfer_no));
  for (const p of snap.payouts) {
    if (!transferNos.has(p.payout_ref)) out.push(`payout ${p.payout_ref} upstream has no transfer`);
  }
  for (const o of stp.unclaimed)
    out.push(`STP order ${o.id} (${o.clave_rastreo}, ${o.estado}): no transfer's tracking key names it`);
  for (const [transferNo] of stp.byTransfer)
    if (!transferNos.has(transferNo)) out.push(`STP payout of ${transferNo} has no transfer`);
  return out;
}
