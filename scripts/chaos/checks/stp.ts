// What the STP emulator holds, read against the platform's stores: each transfer's E order (found by the
// SPEI tracking key the router recorded for it) and what each estado means for the transfer.
import { ROUTE_IDS } from '../records.js';
import type { Snapshot } from '../snapshot.js';

type StpOrder = Snapshot['stpOrders'][number];

/** The transfer status an E order's estado implies (CONTRACT.md 16, "Order estado values"). */
export function transferStatusOfEstado(estado: string): string {
  if (estado === 'LQ' || estado === 'TLQ') return 'success';
  if (estado === 'D') return 'close';
  if (['CN', 'CA', 'CR', 'TCL', 'RB'].includes(estado)) return 'fail';
  return 'progress';
}

/** An E order not final yet: in flight, or liquidated with its return still to come. */
export const stpOrderMoving = (o: StpOrder): boolean =>
  o.tipo_orden === 'E' && (transferStatusOfEstado(o.estado) === 'progress' || o.return_at !== null);

/**
 * Each STP transfer's E orders at the emulator, by the tracking key the router recorded for it, and the E
 * orders no transfer's key names (a payout at STP the platform does not know).
 */
export function stpPayouts(snap: Snapshot): {
  byTransfer: Map<string, StpOrder[]>;
  keyOf: Map<string, string>;
  unclaimed: StpOrder[];
} {
  const keyOf = new Map(
    snap.channelPayouts
      .filter((p) => p.route_id === ROUTE_IDS.stp && p.clave_rastreo !== '')
      .map((p) => [p.transfer_no, p.clave_rastreo] as const),
  );
  const transferOfKey = new Map([...keyOf].map(([transferNo, key]) => [key, transferNo] as const));
  const byTransfer = new Map<string, StpOrder[]>();
  const unclaimed: StpOrder[] = [];
  for (const order of snap.stpOrders) {
    if (order.tipo_orden !== 'E') continue;
    const transferNo = transferOfKey.get(order.clave_rastreo);
    if (transferNo === undefined) unclaimed.push(order);
    else byTransfer.set(transferNo, [...(byTransfer.get(transferNo) ?? []), order]);
  }
  return { byTransfer, keyOf, unclaimed };
}
