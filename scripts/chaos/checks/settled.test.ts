import { describe, expect, it } from 'vitest';
import { settledSnapshot, T0 } from './fixtures.js';
import { unsettled } from './settled.js';

describe('unsettled', () => {
  it('is empty once every event is published, recorded and delivered and nothing is in flight', () => {
    expect(unsettled(settledSnapshot(), T0 + 5_000)).toEqual([]);
  });

  it('names what still moves: an unpublished event, a pending delivery, a transfer in flight, an order past expiry', () => {
    const snap = settledSnapshot();
    snap.payEvents[0]!.published = false;
    snap.deliveries[1]!.status = 'pending';
    snap.transfers[0]!.status = 'progress';
    snap.payOrders.push({
      ...snap.payOrders[0]!,
      order_no: 'P0002',
      status: 'wait',
      expired_time: new Date(T0),
    });
    expect(unsettled(snap, T0 + 5_000)).toEqual([
      '1 outbox events unpublished',
      '1 deliveries pending',
      '1 transfers not final',
      '1 expired pay orders still open',
      '1 short-lived pay orders not expired yet',
    ]);
  });
});
