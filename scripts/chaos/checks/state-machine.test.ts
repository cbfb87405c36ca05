import { describe, expect, it } from 'vitest';
import { PAY, settledInput, settledSnapshot, TRANSFER } from './fixtures.js';
import { checkStateMachine } from './state-machine.js';

describe('checkStateMachine', () => {
  it('passes histories that walk the state machines, one outbox event per change', () => {
    expect(checkStateMachine(settledInput())).toEqual([]);
  });

  it('reports a forbidden pay transition, a change without its outbox event, and a transfer that skipped a version', () => {
    const snap = settledSnapshot();
    snap.payHistory = [
      {
        order_no: PAY,
        from_status: 'wait',
        to_status: 'success',
        version: 2,
        cause: 'merchant',
        event_id: 'e9',
      },
    ];
    snap.transferEvents[0]!.version = '3';
    const violations = checkStateMachine(settledInput({ snap }));
    expect(violations).toContain(`pay ${PAY} v2: wait → success by merchant is forbidden`);
    expect(violations).toContain(`pay ${PAY} v2: its event e9 is not in the outbox`);
    expect(violations).toContain(`transfer ${TRANSFER} v3: version follows 1`);
  });
});
