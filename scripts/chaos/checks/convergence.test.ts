import { describe, expect, it } from 'vitest';
import { checkConvergence } from './convergence.js';
import { PAY, settledInput, settledSnapshot, TRANSFER } from './fixtures.js';

describe('checkConvergence', () => {
  it('passes paid orders that are success and payouts that agree with the channel and its rules', () => {
    expect(checkConvergence(settledInput(), [], [])).toEqual([]);
  });

  it('reports a paid order left open, a payout that disagrees, a rule broken, a service down and a run not settled', () => {
    const snap = settledSnapshot();
    snap.payOrders[0]!.status = 'wait';
    snap.payouts[0]!.status = 'rejected';
    snap.transfers[0]!.payee_name = 'REJECT Luis Gomez';
    const violations = checkConvergence(settledInput({ snap }), ['1 deliveries pending'], ['notifier']);
    expect(violations).toEqual([
      'not settled: 1 deliveries pending',
      'notifier is not running at the end',
      `pay ${PAY} was paid upstream but is wait`,
      `pay ${PAY}: a matched deposit, status wait`,
      `transfer ${TRANSFER} is success, its payout upstream rejected`,
      `transfer ${TRANSFER} on sandbox-default (REJECT Luis Gomez) ended success, the tester rule says fail`,
    ]);
  });
});
