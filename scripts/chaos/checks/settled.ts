import type { Snapshot } from '../snapshot.js';

/** What still moves: empty when the platform has settled. */
export function unsettled(s: Snapshot, now: number): string[] {
  const out: string[] = [];
  const unpublished =
    s.payEvents.filter((e) => !e.published).length + s.transferEvents.filter((e) => !e.published).length;
  if (unpublished) out.push(`${unpublished} outbox events unpublished`);
  const events = s.payEvents.length + s.transferEvents.length;
  if (s.deliveries.length !== events)
    out.push(`${s.deliveries.length}/${events} events recorded by the notifier`);
  const pending = s.deliveries.filter((d) => d.status === 'pending').length;
  if (pending) out.push(`${pending} deliveries pending`);
  const moving = s.transfers.filter((t) => t.status === 'submitting' || t.status === 'progress').length;
  if (moving) out.push(`${moving} transfers not final`);
  const overdue = s.payOrders.filter(
    (o) => (o.status === 'wait' || o.status === 'progress') && o.expired_time.getTime() < now,
  ).length;
  if (overdue) out.push(`${overdue} expired pay orders still open`);
  // Short-lived orders (minutes) are waited for too, so none changes between the final queries and the
  // last snapshot; the default 24 h expiries stay open, and stay still.
  const expiring = s.payOrders.filter(
    (o) => (o.status === 'wait' || o.status === 'progress') && o.expired_time.getTime() < now + 600_000,
  ).length;
  if (expiring) out.push(`${expiring} short-lived pay orders not expired yet`);
  const paidAccounts = new Set(s.accounts.filter((a) => a.status === 'paid').map((a) => a.order_ref));
  const paidNotSuccess = s.payOrders.filter(
    (o) => paidAccounts.has(o.order_no) && o.status !== 'success',
  ).length;
  if (paidNotSuccess) out.push(`${paidNotSuccess} paid orders not yet success`);
  const returning = s.payouts.filter((p) => p.status === 'processing').length;
  if (returning) out.push(`${returning} payouts still processing at the channel`);
  return out;
}
