import { describe, expect, it } from 'vitest';
import { notifierEnv } from '../config.js';
import { nextRetryDelay, parseRetrySchedule } from './retry-schedule.js';

describe('parseRetrySchedule', () => {
  it("reads the contract's default: 16 retries, about 24 hours in all", () => {
    const schedule = parseRetrySchedule('15s,15s,30s,1m,3m,10m,20m,30m,30m,30m,1h,3h,3h,3h,6h,6h');
    expect(schedule).toHaveLength(16);
    expect(schedule.slice(0, 4)).toEqual([15_000, 15_000, 30_000, 60_000]);
    expect(schedule.at(-1)).toBe(6 * 3_600_000);
    const hours = schedule.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(24);
    expect(hours).toBeLessThan(26);
  });

  it('reads ms, s, m, h and d, fractions and spaces; an empty schedule means no retries', () => {
    expect(parseRetrySchedule(' 200ms, 1.5s ,2m,1h,1d ')).toEqual([
      200, 1_500, 120_000, 3_600_000, 86_400_000,
    ]);
    expect(parseRetrySchedule('')).toEqual([]);
  });

  it('names the entry it cannot read', () => {
    expect(() => parseRetrySchedule('15s,soon')).toThrow(/"soon" is not a duration/);
    expect(() => parseRetrySchedule('15')).toThrow(/"15" is not a duration/);
    expect(() => parseRetrySchedule('15s,,30s')).toThrow(/"" is not a duration/);
  });

  it('makes the notifier refuse to start with a bad schedule', () => {
    const result = notifierEnv.safeParse({ NOTIFY_RETRY_SCHEDULE: '15s,forever' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['NOTIFY_RETRY_SCHEDULE']);
  });
});

describe('nextRetryDelay', () => {
  it('waits the n-th entry after the n-th failed attempt and gives up after the last', () => {
    const schedule = [200, 400];
    expect(nextRetryDelay(schedule, 1)).toBe(200);
    expect(nextRetryDelay(schedule, 2)).toBe(400);
    expect(nextRetryDelay(schedule, 3)).toBeUndefined();
    expect(nextRetryDelay([], 1)).toBeUndefined();
  });
});
