import { describe, expect, it } from 'vitest';
import { gate, uniqueName, waitFor } from './wait.js';

describe('waitFor', () => {
  it('returns the first value that is not undefined, null or false, retrying through throws', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls === 1) throw new Error('not yet');
        return calls < 4 ? undefined : { calls };
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 4 });
  });

  it('throws with the message and the last error once the time is up', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('row missing');
        },
        { timeoutMs: 50, intervalMs: 5, message: 'order never settled' },
      ),
    ).rejects.toThrow(/order never settled \(waited 50 ms; last error: Error: row missing\)/);
  });
});

describe('uniqueName', () => {
  it('gives a different name each time, usable as a NATS stream name', () => {
    const a = uniqueName('orders');
    expect(a).toMatch(/^orders_[0-9a-f]{10}$/);
    expect(uniqueName('orders')).not.toBe(a);
  });
});

describe('gate', () => {
  it('holds whoever awaits it until it is opened, then lets every one of them through', async () => {
    const g = gate();
    const passed: number[] = [];
    const waiting = [1, 2].map(async (n) => {
      await g.opened;
      passed.push(n);
    });
    // By the next macrotask every settled promise has run its continuations: an open gate would have let them by.
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toEqual([]);
    g.open();
    await Promise.all(waiting);
    expect(passed.sort()).toEqual([1, 2]);
  });
});
