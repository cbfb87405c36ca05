import { describe, expect, it } from 'vitest';
import { LedgerError } from './ledger.errors.js';
import { isRetriable, retryConflicts } from './retry.js';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('retryConflicts', () => {
  it('runs a transaction again after a deadlock or serialization failure, and answers its result', async () => {
    const failures = [pgError('40P01'), pgError('40001'), pgError('23505')];
    let attempts = 0;
    const result = await retryConflicts(async () => {
      attempts += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'booked';
    });
    expect(result).toBe('booked');
    expect(attempts).toBe(4);
  });

  it('never turns a refusal into a retry, nor a conflict into a refusal', async () => {
    let attempts = 0;
    const refusal = new LedgerError('INSUFFICIENT_BALANCE');
    await expect(
      retryConflicts(async () => {
        attempts += 1;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(attempts).toBe(1);
    expect(isRetriable(refusal)).toBe(false);
  });

  it('gives up after a bounded number of conflicts with the conflict itself', async () => {
    let attempts = 0;
    const conflict = pgError('40P01');
    await expect(
      retryConflicts(async () => {
        attempts += 1;
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(attempts).toBe(6);
  });
});
