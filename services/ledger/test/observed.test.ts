import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookEvent } from '../src/events/status-changed.handler.js';
import type { OrderKind } from '../src/events/status-changed.schema.js';
import { upsertObserved } from '../src/observed/observed-orders.repository.js';
import { payEvent, transferEvent } from './support/events.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// The latest fact the ledger observed per order and transfer, kept with the bookings its events cause.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_observed');
});
afterAll(async () => {
  await t?.drop();
});

const observed = (kind: OrderKind, number: string) =>
  t.db
    .selectFrom('observed_orders')
    .selectAll()
    .where('kind', '=', kind)
    .where('number', '=', number)
    .executeTakeFirst();

describe('observed orders', () => {
  it('keeps the newest fact: an older event arriving later changes neither status nor amount', async () => {
    const paidAt = new Date('2026-11-20T15:00:00Z');
    await bookEvent(
      t,
      payEvent('MO1', 'PO1', { to: 'success', version: 2, routeId: 'r1', upstreamRef: 'VA-1', at: paidAt }),
    );
    await bookEvent(t, payEvent('MO1', 'PO1', { to: 'wait', version: 1, amount: 1, fee: 0 }));
    const row = await observed('pay', 'PO1');
    expect(row).toMatchObject({
      mch_no: 'MO1',
      status: 'success',
      amount: 10_000,
      fee: 300,
      route_id: 'r1',
      upstream_ref: 'VA-1',
      version: 2,
    });
    expect(row?.succeeded_at?.toISOString()).toBe(paidAt.toISOString());
  });

  it('a newer event replaces the status, keeps the route it did not carry, and the pay time of an older success', async () => {
    await bookEvent(
      t,
      payEvent('MO1', 'PO2', { to: 'wait', version: 1, routeId: 'r2', upstreamRef: 'VA-2' }),
    );
    await bookEvent(t, payEvent('MO1', 'PO2', { to: 'close', version: 3 }));
    const paidAt = new Date('2026-11-20T16:00:00Z');
    await bookEvent(t, payEvent('MO1', 'PO2', { to: 'success', version: 2, at: paidAt }));
    const row = await observed('pay', 'PO2');
    expect(row).toMatchObject({ status: 'close', version: 3, route_id: 'r2', upstream_ref: 'VA-2' });
    expect(row?.succeeded_at?.toISOString()).toBe(paidAt.toISOString());
  });

  it('keeps a transfer with its route, and the time it was returned', async () => {
    await t.ledger.adjust({ mchNo: 'MO2', amount: 100_000, reason: 'opening', reference: 'o' });
    await t.ledger.freeze({
      mchNo: 'MO2',
      transferNo: 'TO1',
      bizTransferNo: 'BT-TO1',
      amount: 5_000,
      fee: 100,
    });
    await bookEvent(
      t,
      transferEvent('MO2', 'TO1', { to: 'success', version: 2, routeId: 'r1', upstreamRef: 'PY-1' }),
    );
    await bookEvent(t, transferEvent('MO2', 'TO1', { to: 'close', from: 'success', version: 3 }));
    const row = await observed('transfer', 'TO1');
    expect(row).toMatchObject({
      status: 'close',
      amount: 5_000,
      fee: 100,
      route_id: 'r1',
      upstream_ref: 'PY-1',
    });
    expect(row?.succeeded_at).not.toBeNull();
    expect(row?.returned_at).not.toBeNull();
    const hold = await t.db
      .selectFrom('holds')
      .select('status')
      .where('transfer_no', '=', 'TO1')
      .executeTakeFirst();
    expect(hold?.status).toBe('returned');
  });

  it('writes nothing when the booking in its transaction fails', async () => {
    const event = payEvent('MO1', 'PO3', { to: 'success', version: 2, routeId: 'r1' });
    await expect(
      t.ledger.bookNow([], async (trx) => {
        await upsertObserved(trx, [event]);
        throw new Error('the booking failed');
      }),
    ).rejects.toThrow('the booking failed');
    expect(await observed('pay', 'PO3')).toBeUndefined();
  });
});
