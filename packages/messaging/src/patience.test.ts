import { describe, expect, it } from 'vitest';
import { isTransientJetStreamError, withJetStreamPatience } from './streams.js';

function named(name: string, message = name): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

describe('withJetStreamPatience', () => {
  it('retries a timed-out or unanswered declaration until it succeeds', async () => {
    const failures = [named('TimeoutError', 'timeout'), named('NoRespondersError')];
    const retries: number[] = [];
    const result = await withJetStreamPatience(
      'declaring',
      async () => {
        const next = failures.shift();
        if (next) throw next;
        return 'declared';
      },
      { onRetry: (_err, attempt) => retries.push(attempt) },
    );
    expect(result).toBe('declared');
    expect(retries).toEqual([1, 2]);
  });

  it('throws a request that is wrong at once, without retrying', async () => {
    let calls = 0;
    const wrong = new Error('subjects overlap with an existing stream');
    await expect(
      withJetStreamPatience('declaring', async () => {
        calls++;
        throw wrong;
      }),
    ).rejects.toBe(wrong);
    expect(calls).toBe(1);
  });

  it('gives up on a cluster that stays silent past its patience, saying what it was doing', async () => {
    let calls = 0;
    await expect(
      withJetStreamPatience(
        'declaring the events stream',
        async () => {
          calls++;
          throw named('TimeoutError', 'timeout');
        },
        { patienceMs: 400 },
      ),
    ).rejects.toThrow(/declaring the events stream: timeout \(after \d+ tries\)/);
    expect(calls).toBeGreaterThan(1);
  });

  it('tells transient failures from others', () => {
    expect(isTransientJetStreamError(named('TimeoutError'))).toBe(true);
    expect(isTransientJetStreamError(new Error('stream name already in use'))).toBe(false);
    expect(isTransientJetStreamError('timeout')).toBe(false);
  });
});
