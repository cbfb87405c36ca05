import { describe, expect, it } from 'vitest';
import { checkExactlyOnce } from './exactly-once.js';
import { MCH, PAY, settledInput, settledSnapshot, TRANSFER } from './fixtures.js';

describe('checkExactlyOnce', () => {
  it('passes every accepted order stored once, queried alike, with one upstream object each', () => {
    expect(checkExactlyOnce(settledInput())).toEqual([]);
  });

  it('reports an order stored twice, a transfer with two payouts, and an identical retry refused as a duplicate', () => {
    const snap = settledSnapshot();
    snap.payOrders.push({ ...snap.payOrders[0]!, order_no: 'P0002' });
    snap.payouts.push({ payout_ref: TRANSFER, status: 'succeeded' });
    const input = settledInput({ snap });
    input.creates[1]!.codes = [50003, 40003, 0];
    const violations = checkExactlyOnce(input);
    expect(violations).toContain(`pay ${MCH}|CP-1: 2 rows in the store`);
    expect(violations).toContain(
      `transfer ${TRANSFER} (success, route sandbox-default): 2 sandbox payouts, 0 STP orders`,
    );
    expect(violations.some((v) => v.includes('refused as a duplicate'))).toBe(true);
  });

  it('reports an accepted order missing from the store and a payout upstream with no transfer', () => {
    const snap = settledSnapshot();
    snap.payOrders = [];
    snap.accounts = [];
    snap.payouts.push({ payout_ref: 'T-ghost', status: 'succeeded' });
    const violations = checkExactlyOnce(settledInput({ snap }));
    expect(violations).toContain(`pay ${MCH}|CP-1: accepted as ${PAY} but not in the store`);
    expect(violations).toContain('payout T-ghost upstream has no transfer');
  });
});
