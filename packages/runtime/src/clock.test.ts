import { describe, expect, it } from 'vitest';
import { createTestClock } from './clock.js';

describe('the test clock', () => {
  it('moves its time forward when advanced, and wakes the sleepers whose time came, only those', async () => {
    const clock = createTestClock();
    const before = clock.now().getTime();
    const woken: string[] = [];
    const short = clock.sleep(60_000).then(() => woken.push('short'));
    const long = clock.sleep(3_600_000).then(() => woken.push('long'));
    expect(clock.sleepers()).toBe(2);
    clock.advance(61_000);
    await short;
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(61_000);
    expect(woken).toEqual(['short']);
    expect(clock.sleepers()).toBe(1);
    clock.advance(3_600_000);
    await long;
    expect(woken).toEqual(['short', 'long']);
    expect(clock.sleepers()).toBe(0);
  });

  it('lets a sleep end by the wall clock too, and refuses to go back', async () => {
    const clock = createTestClock();
    await clock.sleep(5);
    expect(clock.sleepers()).toBe(0);
    expect(() => clock.advance(-1)).toThrow();
  });
});
