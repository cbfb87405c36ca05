import type { Snapshot } from '../snapshot.js';
import { tally } from '../tally.js';
import type { CheckInput } from './input.js';

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
  // One upstream object per order: one virtual account per opened pay order, one payout per transfer.
  const accountsByRef = tally(snap.accounts, (a) => a.order_ref);
  for (const o of snap.payOrders) {
    if (o.opened_at && accountsByRef[o.order_no] !== 1)
      out.push(`pay order ${o.order_no}: ${accountsByRef[o.order_no] ?? 0} virtual accounts upstream`);
  }
  const payoutsByRef = tally(snap.payouts, (p) => p.payout_ref);
  for (const t of snap.transfers) {
    const payouts = payoutsByRef[t.transfer_no] ?? 0;
    // No payout is right for a transfer whose submission never reached the channel: reconciliation
    // then fails it (the channel denies knowing it), and no money left.
    if (payouts > 1 || (payouts === 0 && t.status !== 'fail'))
      out.push(`transfer ${t.transfer_no} (${t.status}): ${payouts} payouts upstream`);
  }
  const transferNos = new Set(snap.transfers.map((t) => t.transfer_no));
  for (const p of snap.payouts) {
    if (!transferNos.has(p.payout_ref)) out.push(`payout ${p.payout_ref} upstream has no transfer`);
  }
  return out;
}
