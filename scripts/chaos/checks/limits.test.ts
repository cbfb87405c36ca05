import { describe, expect, it } from 'vitest';
import type { CreateRecord } from '../records.js';
import { checkLimits } from './limits.js';

const limits = { payout: { perTransfer: 9_000, daily: 150_000 } };
let n = 0;
function transfer(mchNo: string, amount: number, codes: number[], transferNo?: string): CreateRecord {
  n += 1;
  return {
    kind: 'transfer',
    route: 'sandbox',
    scenario: 'Ana',
    mchNo,
    bizNo: `CT-${n}`,
    params: { amount },
    withNotify: false,
    acceptedAs: transferNo ? [transferNo] : [],
    codes,
  };
}

describe('checkLimits', () => {
  it('passes kept transfers within the day and counts the refusals', () => {
    const creates = [
      ...Array.from({ length: 16 }, (_, i) => transfer('M1', 8_999.99, [0], `T${i}`)),
      transfer('M1', 9_500, [40008]),
      transfer('M1', 5_000, [40008]),
      transfer('M2', 9_999.99, [0], 'U1'),
    ];
    // 16 × 8,999.99 = 143,999.84: within 150,000.00; M2 is not limited.
    const result = checkLimits({
      creates,
      transfers: [],
      limited: new Set(['M1']),
      limits,
      days: 1,
    });
    expect(result).toEqual({ violations: [], refused: 2 });
  });

  it('reports a transfer over perTransfer accepted and a day over daily, a failed one given back', () => {
    const creates = [
      transfer('M1', 9_000.01, [0], 'T1'),
      ...Array.from({ length: 17 }, (_, i) => transfer('M1', 8_900, [0], `T${i + 2}`)),
      transfer('M3', 9_000, [0], 'F1'),
      ...Array.from({ length: 17 }, (_, i) => transfer('M3', 8_900, [0], `G${i}`)),
    ];
    const result = checkLimits({
      creates,
      // One of M3's is failed: 16 × 8,900 + 9,000 = 151,400.00 kept of 160,300.00 accepted... still over.
      transfers: [{ transfer_no: 'G0', status: 'fail' }],
      limited: new Set(['M1', 'M3']),
      limits,
      days: 1,
    });
    expect(result.violations).toContain(
      `M1 ${creates[0]!.bizNo}: 900001 centavos accepted over perTransfer 900000`,
    );
    expect(result.violations).toContain(
      'M1: transfers kept add up to 16030001 centavos, over 15000000 for 1 day(s)',
    );
    expect(result.violations).toContain(
      'M3: transfers kept add up to 15140000 centavos, over 15000000 for 1 day(s)',
    );
    // Across midnight each day's limit counts once.
    expect(
      checkLimits({ creates, transfers: [], limited: new Set(['M3']), limits, days: 2 }).violations,
    ).toEqual([]);
  });
});
