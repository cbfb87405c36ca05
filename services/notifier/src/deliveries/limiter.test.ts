import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { limiter } from './limiter.js';

describe('limiter', () => {
  it('runs at most `limit` at once, all of them in arrival order, and passes results and errors through', async () => {
    const run = limiter(3);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        run(async () => {
          started.push(i);
          active += 1;
          peak = Math.max(peak, active);
          // Work of uneven length, so tasks finish out of order and overlap; nothing is waited for here.
          await sleep(5 + (i % 4));
          active -= 1;
          if (i === 7) throw new Error('seven');
          return i * 10;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results[7]).toMatchObject({ status: 'rejected', reason: new Error('seven') });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual(
      Array.from({ length: 20 }, (_, i) => i * 10).filter((v) => v !== 70),
    );
    // A failure gave its permit back: the limiter still runs three at once afterwards.
    active = 0;
    peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        run(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await sleep(5);
          active -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
  });
});
