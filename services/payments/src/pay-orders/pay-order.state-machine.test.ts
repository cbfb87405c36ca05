import { describe, expect, it } from 'vitest';
import {
  allowedFrom,
  CAUSES,
  type Cause,
  isAllowed,
  PAY_STATUSES,
  type PayStatus,
  TRANSITIONS,
} from './pay-order.state-machine.js';

// docs/merchant-api.md "Statuses" written out independently of the table under test: for every (from, to) pair,
// the causes that may make it. A pair not listed is forbidden for every cause.
const m: Cause = 'merchant';
const u: Cause = 'upstream';
const e: Cause = 'expiry';
const EXPECTED: Record<PayStatus, Partial<Record<PayStatus, Cause[]>>> = {
  wait: { progress: [u], success: [u], close: [m, u], cancel: [m], fail: [u], timeout: [e] },
  progress: { success: [u], close: [m, u], cancel: [m], fail: [u], timeout: [e] },
  success: {},
  close: { success: [u] },
  cancel: { success: [u] },
  fail: { success: [u] },
  timeout: { success: [u] },
};

const cases = PAY_STATUSES.flatMap((from) =>
  PAY_STATUSES.flatMap((to) =>
    CAUSES.map((cause) => ({ from, to, cause, allowed: (EXPECTED[from][to] ?? []).includes(cause) })),
  ),
);

describe('pay order state machine', () => {
  it.each(cases)('$from -> $to by $cause: allowed=$allowed', ({ from, to, cause, allowed }) => {
    expect(isAllowed(from, to, cause)).toBe(allowed);
  });

  it('never leaves success and never stays in place', () => {
    expect(TRANSITIONS.filter((t) => t.from === 'success')).toEqual([]);
    expect(TRANSITIONS.filter((t) => t.from === t.to)).toEqual([]);
  });

  it('lets a merchant act only on wait and progress', () => {
    const fromStates = new Set(TRANSITIONS.filter((t) => t.causes.includes('merchant')).map((t) => t.from));
    expect([...fromStates].sort()).toEqual(['progress', 'wait']);
  });

  it('gives the conditional update exactly the from-states the table allows', () => {
    expect(allowedFrom('success', 'upstream').sort()).toEqual(
      ['cancel', 'close', 'fail', 'progress', 'timeout', 'wait'].sort(),
    );
    expect(allowedFrom('success', 'merchant')).toEqual([]);
    expect(allowedFrom('timeout', 'expiry').sort()).toEqual(['progress', 'wait']);
    expect(allowedFrom('cancel', 'upstream')).toEqual([]);
  });
});
