import { setTimeout as wait } from 'node:timers/promises';

/**
 * Where a service reads the time and waits: expiries, leases and timeouts ask it, so a test hands a
 * clock it moves (`createTestClock`) instead of waiting for the time to pass.
 */
export interface Clock {
  now(): Date;
  /** Resolves once `ms` of this clock's time has passed. */
  sleep(ms: number): Promise<void>;
}

/** The real time; what every service uses unless a test gives its own. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => wait(ms),
};

/** A clock a test moves forward; time also flows on its own, so waits on other processes still end. */
export interface TestClock extends Clock {
  /** Moves the clock `ms` ahead, waking every sleeper whose time has come. */
  advance(ms: number): void;
  /** How many `sleep` calls are waiting now: a test sees that the code reached a wait. */
  sleepers(): number;
}

/** The wall clock plus whatever `advance` added; for tests only. */
export function createTestClock(): TestClock {
  let offset = 0;
  const waiting = new Set<{ until: number; wake: () => void }>();
  const nowMs = () => Date.now() + offset;
  const wakeDue = () => {
    for (const sleeper of waiting) if (sleeper.until <= nowMs()) sleeper.wake();
  };
  return {
    now: () => new Date(nowMs()),
    sleep(ms) {
      return new Promise<void>((resolve) => {
        const sleeper = {
          until: nowMs() + ms,
          wake: () => {
            clearTimeout(timer);
            waiting.delete(sleeper);
            resolve();
          },
        };
        // The wall clock may reach the time first (the offset never shrinks, so this never wakes early).
        const timer = setTimeout(sleeper.wake, Math.max(0, ms));
        waiting.add(sleeper);
      });
    },
    advance(ms) {
      if (ms < 0) throw new Error('a clock does not go back');
      offset += ms;
      wakeDue();
    },
    sleepers: () => waiting.size,
  };
}
