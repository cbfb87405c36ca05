import { describe, expect, it } from 'vitest';
import { checkCallbacks } from './callbacks.js';
import { PAY, receipt, settledInput, settledSnapshot, T0, TRANSFER } from './fixtures.js';

describe('checkCallbacks', () => {
  it('passes every change delivered once, after a FAIL answer was retried', () => {
    const input = settledInput({
      receipts: [
        receipt(PAY, 'success', { answer: 'FAIL' }),
        receipt(PAY, 'success', { attempt: 2 }),
        receipt(TRANSFER, 'success'),
      ],
    });
    const result = checkCallbacks(input);
    expect(result.violations).toEqual([]);
    expect(result.delivered).toBe(2);
  });

  it('passes a second delivery only when a notifier was killed mid-attempt and the attempt was abandoned', () => {
    const snap = settledSnapshot();
    snap.attempts.push({ delivery_id: 'd1', outcome: 'abandoned', started_at: new Date(T0 + 900) });
    const input = settledInput({
      snap,
      receipts: [
        receipt(PAY, 'success'),
        receipt(PAY, 'success', { at: T0 + 9_000 }),
        receipt(TRANSFER, 'success'),
      ],
      faults: [{ name: 'kill -9 notifier', service: 'notifier', from: T0 + 1_000, to: T0 + 2_000 }],
    });
    const result = checkCallbacks(input);
    expect(result.violations).toEqual([]);
    expect(result.duplicates.map((d) => d.explanation)).toEqual([
      'notifier killed mid-attempt; attempt recorded abandoned, sent again',
    ]);
  });

  it('passes a second delivery whose first attempt was abandoned while Postgres was away', () => {
    const snap = settledSnapshot();
    snap.attempts.push({ delivery_id: 'd1', outcome: 'abandoned', started_at: new Date(T0 + 900) });
    const input = settledInput({
      snap,
      receipts: [
        receipt(PAY, 'success', { at: T0 + 1_500 }),
        receipt(PAY, 'success', { at: T0 + 9_000 }),
        receipt(TRANSFER, 'success'),
      ],
      faults: [
        { name: 'postgres crash (pg_ctl stop -m immediate) and start', from: T0 + 1_000, to: T0 + 6_000 },
      ],
    });
    const result = checkCallbacks(input);
    expect(result.violations).toEqual([]);
    expect(result.duplicates.map((d) => d.explanation)).toEqual([
      'Postgres went away mid-attempt; attempt recorded abandoned, sent again',
    ]);
  });

  it('passes a second delivery after an attempt that timed out while the merchant answered SUCCESS', () => {
    const snap = settledSnapshot();
    snap.attempts.unshift({
      delivery_id: 'd1',
      outcome: 'failed',
      started_at: new Date(T0 + 500),
      error: 'timed out after 3000 ms',
    });
    const input = settledInput({
      snap,
      receipts: [
        receipt(PAY, 'success', { at: T0 + 600 }),
        receipt(PAY, 'success', { at: T0 + 9_000, attempt: 2 }),
        receipt(TRANSFER, 'success'),
      ],
    });
    const result = checkCallbacks(input);
    expect(result.violations).toEqual([]);
    expect(result.duplicates.map((d) => d.explanation)).toEqual([
      "the merchant's answer came after the notifier's timeout; attempt recorded failed (timed out), sent again",
    ]);
  });

  it('still reports a duplicate whose only failed attempt was refused, not timed out', () => {
    const snap = settledSnapshot();
    snap.attempts.unshift({
      delivery_id: 'd1',
      outcome: 'failed',
      started_at: new Date(T0 + 500),
      error: 'HTTP 500',
    });
    const input = settledInput({
      snap,
      receipts: [
        receipt(PAY, 'success', { at: T0 + 600 }),
        receipt(PAY, 'success', { at: T0 + 9_000, attempt: 2 }),
        receipt(TRANSFER, 'success'),
      ],
    });
    expect(checkCallbacks(input).violations).toContain(
      `pay ${PAY} v2 → success: delivered 2 times (no abandoned or timed-out attempt explains it)`,
    );
  });

  it('reports a change never delivered, a duplicate nothing explains, and a callback that does not verify', () => {
    const input = settledInput({
      receipts: [
        receipt(PAY, 'success'),
        receipt(PAY, 'success', { at: T0 + 9_000, signed: false }),
        receipt(TRANSFER, 'success', { answer: 'HTTP 500' }),
      ],
    });
    const { violations } = checkCallbacks(input);
    expect(violations).toContain(
      `transfer ${TRANSFER} v2 → success: never delivered (delivery delivered, 1 tries at the sink)`,
    );
    expect(violations).toContain(
      `pay ${PAY} v2 → success: delivered 2 times (no abandoned or timed-out attempt explains it)`,
    );
    expect(violations.some((v) => v.includes('does not verify with the platform key'))).toBe(true);
  });
});
