import { createLogger } from '@agentpay/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { type BackgroundLoop, type Next, startBackgroundLoop } from './loop.js';

const logger = createLogger({ service: 'loop-test', level: 'silent' });
const loops: BackgroundLoop<unknown>[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((l) => l.stop()));
});

function start<R>(
  opts: Omit<Parameters<typeof startBackgroundLoop<R>>[0], 'logger' | 'name'>,
): BackgroundLoop<R> {
  const loop = startBackgroundLoop<R>({ name: 'test', logger, ...opts });
  loops.push(loop as BackgroundLoop<unknown>);
  return loop;
}

/** A promise and the function that settles it, to hold a round open until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('startBackgroundLoop', () => {
  it('runs rounds back to back while they answer more, then waits for the interval', async () => {
    let rounds = 0;
    start<Next>({
      intervalMs: 60_000,
      round: async () => (++rounds < 3 ? 'more' : 'idle'),
      next: (r) => r,
    });
    await until(() => rounds === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(3);
  });

  it('ends an idle pause when kicked', async () => {
    let rounds = 0;
    const loop = start({ intervalMs: 60_000, round: async () => ++rounds });
    await until(() => rounds === 1);
    loop.kick();
    await until(() => rounds === 2);
  });

  it('runs again right after a round during which it was kicked', async () => {
    let rounds = 0;
    const first = gate();
    const loop = start({
      intervalMs: 60_000,
      round: async () => {
        rounds += 1;
        if (rounds === 1) await first.opened;
      },
    });
    await until(() => rounds === 1);
    loop.kick();
    first.open();
    await until(() => rounds === 2);
  });

  it('backs off after a failed round, and a kick does not cut the back-off short', async () => {
    const times: number[] = [];
    const loop = start({
      intervalMs: 60_000,
      backoff: { firstMs: 150, maxMs: 150 },
      round: async () => {
        times.push(Date.now());
        if (times.length === 1) throw new Error('database is down');
      },
    });
    await until(() => times.length === 1);
    loop.kick();
    await until(() => times.length === 2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
  });

  it('backs off, doubling, after rounds that report their own failure, and resets after a good one', async () => {
    const times: number[] = [];
    start<Next>({
      intervalMs: 60_000,
      backoff: { firstMs: 60, maxMs: 1_000 },
      next: (r) => r,
      round: async () => {
        times.push(Date.now());
        return times.length < 3 ? 'failed' : 'idle';
      },
    });
    await until(() => times.length === 3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(55);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(115);
  });

  it('with no interval runs only when kicked or asked', async () => {
    let rounds = 0;
    const loop = start({ intervalMs: 0, round: async () => ++rounds });
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(0);
    expect(await loop.runOnce()).toBe(1);
    loop.kick();
    await until(() => rounds === 2);
  });

  it('never overlaps runOnce with a round in progress, and answers its own result', async () => {
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    const first = gate();
    const loop = start({
      intervalMs: 60_000,
      round: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        rounds += 1;
        const mine = rounds;
        if (mine === 1) await first.opened;
        active -= 1;
        return mine;
      },
    });
    await until(() => rounds === 1);
    const asked = loop.runOnce();
    first.open();
    expect(await asked).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('stop aborts the round in flight, waits for it, and starts no other', async () => {
    let rounds = 0;
    let sawAbort = false;
    let finished = false;
    const loop = start({
      intervalMs: 1,
      round: async (signal) => {
        rounds += 1;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        sawAbort = signal.aborted;
        await new Promise((r) => setTimeout(r, 20));
        finished = true;
      },
    });
    await until(() => rounds === 1);
    await loop.stop();
    expect(sawAbort).toBe(true);
    expect(finished).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(rounds).toBe(1);
  });
});
