import { describe, expect, it } from 'vitest';
import type { DepositRecord } from '../records.js';
import { checkReconciliation, type ReconDayRun, type ReconDiscrepancy } from './reconciliation.js';

const DAY = '2026-11-24';

function run(overrides: Partial<ReconDayRun> = {}): ReconDayRun {
  return {
    day: DAY,
    ok: true,
    routes: [{ routeId: 'sandbox-default', lines: 40, matched: 38, pending: 0, discrepancies: 2 }],
    ...overrides,
  };
}

function unmatched(id: string, orderNo: string, pesos: number, applied = false): ReconDiscrepancy {
  return {
    id,
    kind: 'unmatched_deposit',
    routeId: 'sandbox-default',
    day: DAY,
    amount: pesos,
    platform: { kind: 'deposit', orderNo, status: 'timeout' },
    channel: {
      reference: `dep_${id}`,
      kind: 'deposit',
      amount: pesos,
      platformRef: orderNo,
      applied,
      occurredAt: `${DAY}T17:00:00.000Z`,
    },
  };
}

// A wrong-amount deposit sent once, and an exact deposit sent twice (its first reply lost to a kill).
const deposits: DepositRecord[] = [
  {
    route: 'sandbox',
    orderNo: 'P-WRONG',
    clabe: '646180000000000001',
    amount: 12.35,
    exact: false,
    attempts: 1,
    matched: false,
  },
  {
    route: 'sandbox',
    orderNo: 'P-RETRY',
    clabe: '646180000000000002',
    amount: 40,
    exact: true,
    attempts: 2,
    matched: false,
  },
  {
    route: 'sandbox',
    orderNo: 'P-ONCE',
    clabe: '646180000000000003',
    amount: 7.5,
    exact: true,
    attempts: 1,
    matched: true,
  },
];

describe('checkReconciliation', () => {
  it('explains a wrong-amount deposit and the retry of a deposit whose reply was lost, and counts them by kind', () => {
    const check = checkReconciliation({
      runs: [run()],
      discrepancies: [unmatched('1', 'P-WRONG', 12.35), unmatched('2', 'P-RETRY', 40)],
      deposits,
      stpReturned: 0,
    });
    expect(check.violations).toEqual([]);
    expect(check.byKind).toEqual({ unmatched_deposit: { explained: 2, unexplained: 0 } });
    expect(check.explained.map((e) => e.id)).toEqual(['1', '2']);
    expect(check.totals).toEqual({ days: 1, lines: 40, matched: 38, pending: 0, discrepancies: 2 });
  });

  it('reports more unmatched deposits to an order than the load sent, one of another amount, and one to an order deposited once', () => {
    const check = checkReconciliation({
      runs: [run()],
      discrepancies: [
        unmatched('1', 'P-RETRY', 40),
        unmatched('2', 'P-RETRY', 40), // the retry explains one of them only
        unmatched('3', 'P-WRONG', 12.36), // not the amount the load sent
        unmatched('4', 'P-ONCE', 7.5), // one attempt: it paid the order, nothing may be left over
        unmatched('5', 'P-WRONG', 12.35, true), // applied by the channel: not a deposit the load made unmatched
      ],
      deposits,
      stpReturned: 0,
    });
    expect(check.byKind).toEqual({ unmatched_deposit: { explained: 1, unexplained: 4 } });
    expect(check.violations).toHaveLength(4);
    expect(check.violations.every((v) => v.startsWith('unexplained unmatched_deposit'))).toBe(true);
    expect(check.violations.map((v) => v.match(/#(\d+)/)?.[1])).toEqual(['2', '3', '4', '5']);
  });

  it('reports every discrepancy of a kind the load never makes: money missing on either side or of another amount', () => {
    const base = unmatched('9', 'P-ONCE', 7.5);
    const check = checkReconciliation({
      runs: [run()],
      discrepancies: [
        { ...base, id: '10', kind: 'missing_on_platform', channel: { ...base.channel, applied: true } },
        {
          ...base,
          id: '11',
          kind: 'missing_on_channel',
          channel: {},
          platform: { kind: 'payout', transferNo: 'T1', amount: 3 },
        },
        { ...base, id: '12', kind: 'amount_mismatch' },
      ],
      deposits,
      stpReturned: 0,
    });
    expect(check.byKind).toEqual({
      missing_on_platform: { explained: 0, unexplained: 1 },
      missing_on_channel: { explained: 0, unexplained: 1 },
      amount_mismatch: { explained: 0, unexplained: 1 },
    });
    expect(check.violations).toHaveLength(3);
    expect(check.violations[1]).toContain('T1');
  });

  it('reports a day whose run failed, a line left pending with no grace, and a run that reconciled no day', () => {
    const failed = checkReconciliation({
      runs: [
        run({ ok: false, error: 'HTTP 503 upstream unavailable', routes: [] }),
        run({
          day: '2026-11-25',
          routes: [{ routeId: 'sandbox-default', lines: 3, matched: 2, pending: 1, discrepancies: 0 }],
        }),
      ],
      discrepancies: [],
      deposits,
      stpReturned: 0,
    });
    expect(failed.violations).toEqual([
      `reconciliation of ${DAY} failed: HTTP 503 upstream unavailable`,
      'reconciliation of 2026-11-25 on sandbox-default: 1 line(s) pending with no grace',
    ]);
    expect(checkReconciliation({ runs: [], discrepancies: [], deposits, stpReturned: 0 }).violations).toEqual(
      ['no day was reconciled'],
    );
  });

  it('over STP allows no discrepancy at all, and counts exactly the deposits the emulator sent back as returned', () => {
    const stpRun = run({
      routes: [
        { routeId: 'sandbox-default', lines: 10, matched: 10, pending: 0, discrepancies: 0, returned: 0 },
        { routeId: 'stp-default', lines: 12, matched: 9, pending: 0, discrepancies: 1, returned: 2 },
      ],
    });
    // The same order and amount the sandbox budget would explain: over STP it must have gone back.
    const onStp = { ...unmatched('20', 'P-WRONG', 12.35), routeId: 'stp-default' };
    const stpDeposits: DepositRecord[] = deposits.map((d) => ({ ...d, route: 'stp' }));
    const check = checkReconciliation({
      runs: [stpRun],
      discrepancies: [onStp],
      deposits: stpDeposits,
      stpReturned: 3,
    });
    expect(check.violations).toEqual([
      expect.stringMatching(/^unexplained unmatched_deposit #20 on stp-default/),
      'stp-default: reconciliation counts 2 deposits returned, the STP emulator sent back 3',
    ]);
    expect(check.byRoute['stp-default']).toEqual({
      lines: 12,
      matched: 9,
      returned: 2,
      pending: 0,
      discrepancies: 1,
      unexplained: 1,
    });
    const clean = checkReconciliation({
      runs: [run({ routes: [{ ...stpRun.routes[1]!, discrepancies: 0, matched: 10 }] })],
      discrepancies: [],
      deposits: stpDeposits,
      stpReturned: 2,
    });
    expect(clean.violations).toEqual([]);
  });

  it('reports a run with deposits over STP that reconciled no STP route', () => {
    const check = checkReconciliation({
      runs: [run()],
      discrepancies: [],
      deposits: [{ ...deposits[2]!, route: 'stp' }],
      stpReturned: 0,
    });
    expect(check.violations).toEqual(['no reconciliation run covered stp-default']);
  });
});
