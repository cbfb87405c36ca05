import type { Receipt } from '../records.js';
import type { Duplicate } from '../report.js';
import type { Snapshot } from '../snapshot.js';
import type { CheckInput } from './input.js';

export interface CallbackCheck {
  violations: string[];
  duplicates: Duplicate[];
  delivered: number;
  superseded: number;
  skipped: number;
}

/**
 * Every status change in the stores reached its merchant: exactly one callback answered SUCCESS, counted
 * raw at the sink per (order, status). Three documented exceptions: a change superseded by a newer change of
 * the same order that was delivered (docs/merchant-api.md "Callbacks"), a second delivery after a notifier died
 * mid-attempt (the attempt is then recorded `abandoned`), and a second delivery after an attempt the notifier
 * gave up on at its timeout while the merchant's SUCCESS was still on its way (recorded `failed`, "timed out");
 * both are what at-least-once allows.
 */
export function checkCallbacks(input: CheckInput): CallbackCheck {
  const out: string[] = [];
  const duplicates: Duplicate[] = [];
  const { snap, receipts } = input;
  const payOrders = new Map(snap.payOrders.map((o) => [o.order_no, o]));
  const transfers = new Map(snap.transfers.map((t) => [t.transfer_no, t]));
  interface Change {
    kind: 'pay' | 'transfer';
    orderNo: string;
    mchNo: string;
    version: number;
    status: string;
    eventId: string;
    notifyUrl: string;
  }
  const changes: Change[] = [];
  for (const h of snap.payHistory) {
    const o = payOrders.get(h.order_no);
    if (!o) continue;
    changes.push({
      kind: 'pay',
      orderNo: h.order_no,
      mchNo: o.mch_no,
      version: h.version,
      status: h.to_status,
      eventId: h.event_id,
      notifyUrl: o.notify_url,
    });
  }
  for (const e of snap.transferEvents) {
    const t = transfers.get(e.order_no);
    if (!t) continue;
    changes.push({
      kind: 'transfer',
      orderNo: e.order_no,
      mchNo: t.mch_no,
      version: Number(e.version),
      status: e.to_status,
      eventId: e.id,
      notifyUrl: t.notify_url,
    });
  }
  const deliveriesByEvent = new Map<string, Snapshot['deliveries']>();
  for (const d of snap.deliveries)
    deliveriesByEvent.set(d.event_id, [...(deliveriesByEvent.get(d.event_id) ?? []), d]);
  const abandoned = new Set(snap.attempts.filter((a) => a.outcome === 'abandoned').map((a) => a.delivery_id));
  const timedOut = new Map<string, number[]>();
  for (const a of snap.attempts)
    if (a.outcome === 'failed' && a.error?.includes('timed out'))
      timedOut.set(a.delivery_id, [...(timedOut.get(a.delivery_id) ?? []), a.started_at.getTime()]);
  const receiptsByKey = new Map<string, Receipt[]>();
  for (const r of receipts) {
    const key = `${r.orderNo}|${r.status}`;
    receiptsByKey.set(key, [...(receiptsByKey.get(key) ?? []), r]);
  }
  const successes = (key: string) => (receiptsByKey.get(key) ?? []).filter((r) => r.answer === 'SUCCESS');
  const notifierKills = input.faults.filter((f) => f.service === 'notifier');
  // A notifier that cannot write leaves its attempt to be found abandoned, as a killed one does.
  const postgresOutages = input.faults.filter((f) => f.name.startsWith('postgres'));
  const changeKeys = new Set(changes.map((c) => `${c.orderNo}|${c.status}`));
  const latestDelivered = new Map<string, number>();
  for (const c of changes) {
    if (successes(`${c.orderNo}|${c.status}`).length > 0)
      latestDelivered.set(c.orderNo, Math.max(latestDelivered.get(c.orderNo) ?? 0, c.version));
  }

  let delivered = 0;
  let superseded = 0;
  let skipped = 0;
  for (const c of changes) {
    const key = `${c.orderNo}|${c.status}`;
    const label = `${c.kind} ${c.orderNo} v${c.version} → ${c.status}`;
    const rows = deliveriesByEvent.get(c.eventId) ?? [];
    if (rows.length !== 1) {
      out.push(`${label}: ${rows.length} deliveries recorded by the notifier for event ${c.eventId}`);
      continue;
    }
    const delivery = rows[0]!;
    if (!c.notifyUrl) {
      skipped += 1;
      if (delivery.status !== 'skipped') out.push(`${label}: no notifyUrl, delivery ${delivery.status}`);
      if ((receiptsByKey.get(key) ?? []).length > 0)
        out.push(`${label}: no notifyUrl, yet the sink got a callback`);
      continue;
    }
    const ok = successes(key);
    if (ok.length === 1) {
      delivered += 1;
      continue;
    }
    if (ok.length === 0) {
      if (delivery.status === 'superseded' && (latestDelivered.get(c.orderNo) ?? 0) > c.version) {
        superseded += 1;
        continue;
      }
      out.push(
        `${label}: never delivered (delivery ${delivery.status}, ${(receiptsByKey.get(key) ?? []).length} tries at the sink)`,
      );
      continue;
    }
    delivered += 1;
    // More than one SUCCESS: acceptable only if the first was answered while a notifier was being killed,
    // or while Postgres was away, so its result was never recorded and the attempt was later found abandoned.
    const first = ok[0]!.at;
    const aroundKill = notifierKills.some(
      (k) => first <= (k.crashed ? k.to : k.from + 100) && first >= k.from - 20_000,
    );
    const aroundOutage = postgresOutages.some((o) => first <= o.to && first >= o.from - 20_000);
    // The first SUCCESS reached the sink after an attempt began that the notifier later recorded as timed out.
    const afterTimeout = (timedOut.get(delivery.id) ?? []).some((started) => started <= first);
    const explained = abandoned.has(delivery.id) ? aroundKill || aroundOutage : afterTimeout;
    const explanation = abandoned.has(delivery.id)
      ? aroundKill
        ? 'notifier killed mid-attempt; attempt recorded abandoned, sent again'
        : aroundOutage
          ? 'Postgres went away mid-attempt; attempt recorded abandoned, sent again'
          : 'attempt recorded abandoned, but the first delivery was not near a notifier kill or a Postgres outage'
      : afterTimeout
        ? "the merchant's answer came after the notifier's timeout; attempt recorded failed (timed out), sent again"
        : 'no abandoned or timed-out attempt explains it';
    duplicates.push({ key: `${label}`, deliveries: ok.length, explanation });
    if (!explained) out.push(`${label}: delivered ${ok.length} times (${explanation})`);
  }
  for (const [key, list] of receiptsByKey) {
    if (!changeKeys.has(key))
      out.push(`sink got ${list.length} callbacks for ${key}, which is no status change in the stores`);
  }
  for (const r of receipts) {
    if (!r.signed)
      out.push(`callback for ${r.orderNo}|${r.status} at ${r.at} does not verify with the platform key`);
    if (r.bodyMchNo !== r.mchNo)
      out.push(`callback for ${r.orderNo} names merchant ${r.bodyMchNo}, sent to ${r.mchNo}'s URL`);
  }
  return { violations: out, duplicates, delivered, superseded, skipped };
}
