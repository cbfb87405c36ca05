import { ROUTE_IDS } from '../records.js';
import type { Snapshot } from '../snapshot.js';
import { stpOrderMoving } from './stp.js';

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
  // The STP face: orders in flight, deposits the platform has not answered, webhooks still being tried.
  const stpMoving = s.stpOrders.filter(stpOrderMoving).length;
  if (stpMoving) out.push(`${stpMoving} payouts still in flight at STP`);
  const unanswered = s.stpOrders.filter((o) => o.tipo_orden === 'R' && o.answer === 'pending').length;
  if (unanswered) out.push(`${unanswered} STP deposits not answered yet`);
  const webhooks = s.stpWebhooks.filter((w) => !w.delivered && !w.gave_up).length;
  if (webhooks) out.push(`${webhooks} STP webhooks not delivered yet`);
  const stpPaid = new Set(
    s.routerAccounts
      .filter((a) => a.route_id === ROUTE_IDS.stp && a.status === 'paid')
      .map((a) => a.order_no),
  );
  const stpPaidNotSuccess = s.payOrders.filter(
    (o) => stpPaid.has(o.order_no) && o.status !== 'success',
  ).length;
  if (stpPaidNotSuccess) out.push(`${stpPaidNotSuccess} orders paid over STP not yet success`);
  return out;
}
