import { isAllowed, isPayStatus, type PayStatus } from '@agentpay/payments/pay-order-state-machine';
import { type TransferStatus, transitionOf } from '@agentpay/transfers/transfer-status';
import type { Snapshot } from '../snapshot.js';
import { tally } from '../tally.js';
import type { CheckInput } from './input.js';

/** Each order's history walks its state machine from creation to its current status and version. */
export function checkStateMachine(input: CheckInput): string[] {
  const out: string[] = [];
  const { snap } = input;
  const history = new Map<string, Snapshot['payHistory']>();
  for (const h of snap.payHistory) history.set(h.order_no, [...(history.get(h.order_no) ?? []), h]);
  const eventsById = new Map(snap.payEvents.map((e) => [e.id, e]));
  const eventCount = tally(snap.payEvents, (e) => e.order_no);
  for (const o of snap.payOrders) {
    if (!o.opened_at) continue;
    const rows = history.get(o.order_no) ?? [];
    let status: string = 'wait';
    let version = 1;
    for (const h of rows) {
      const label = `pay ${o.order_no} v${h.version}`;
      if (h.version !== version + 1) out.push(`${label}: version follows ${version}`);
      if (h.from_status !== status) out.push(`${label}: from ${h.from_status}, but the order was ${status}`);
      const cause = h.cause as 'merchant' | 'upstream' | 'expiry';
      if (!isPayStatus(h.from_status) || !isPayStatus(h.to_status)) {
        out.push(`${label}: unknown status ${h.from_status} → ${h.to_status}`);
      } else if (!isAllowed(h.from_status as PayStatus, h.to_status as PayStatus, cause)) {
        out.push(`${label}: ${h.from_status} → ${h.to_status} by ${h.cause} is forbidden`);
      }
      const event = eventsById.get(h.event_id);
      if (!event) out.push(`${label}: its event ${h.event_id} is not in the outbox`);
      else if (
        event.order_no !== o.order_no ||
        event.to_status !== h.to_status ||
        event.version !== String(h.version)
      )
        out.push(`${label}: its event says ${event.order_no} v${event.version} ${event.to_status}`);
      status = h.to_status;
      version = h.version;
    }
    if (o.status !== status) out.push(`pay ${o.order_no}: status ${o.status}, its history ends in ${status}`);
    if (o.version !== version)
      out.push(`pay ${o.order_no}: version ${o.version}, its history ends at ${version}`);
    if ((eventCount[o.order_no] ?? 0) !== rows.length)
      out.push(`pay ${o.order_no}: ${eventCount[o.order_no] ?? 0} outbox events for ${rows.length} changes`);
  }
  const transferEvents = new Map<string, Snapshot['transferEvents']>();
  for (const e of snap.transferEvents)
    transferEvents.set(e.order_no, [...(transferEvents.get(e.order_no) ?? []), e]);
  for (const t of snap.transfers) {
    const events = [...(transferEvents.get(t.transfer_no) ?? [])].sort(
      (a, b) => Number(a.version) - Number(b.version),
    );
    // Created as progress (version 1), or as fail at once (version 1, no event).
    let status: string = events.length === 0 ? t.status : 'progress';
    let version = 1;
    for (const e of events) {
      const label = `transfer ${t.transfer_no} v${e.version}`;
      if (Number(e.version) !== version + 1) out.push(`${label}: version follows ${version}`);
      if (e.from_status !== status)
        out.push(`${label}: from ${e.from_status}, but the transfer was ${status}`);
      if (!transitionOf(e.from_status as TransferStatus, e.to_status as TransferStatus)?.announce)
        out.push(`${label}: ${e.from_status} → ${e.to_status} is forbidden`);
      if (e.snapshot_status !== e.to_status)
        out.push(`${label}: its event carries status ${e.snapshot_status}`);
      status = e.to_status;
      version = Number(e.version);
    }
    if (t.status !== status)
      out.push(`transfer ${t.transfer_no}: status ${t.status}, its events end in ${status}`);
    if (t.version !== version)
      out.push(`transfer ${t.transfer_no}: version ${t.version}, its events end at ${version}`);
  }
  return out;
}
