import { describe, expect, it } from 'vitest';
import { AppError, type CodeName, Codes, codeNameOf, isAppError } from './codes.js';

describe('Codes', () => {
  const names = Object.keys(Codes) as CodeName[];

  it('has one entry per contract code, with no code used twice', () => {
    expect(names).toHaveLength(35);
    expect(new Set(names.map((n) => Codes[n].code)).size).toBe(names.length);
  });

  it('uses lowercase messages as written in the contract table', () => {
    for (const name of names) expect(Codes[name].msg).toBe(Codes[name].msg.toLowerCase());
    expect(Codes.SIGNATURE_FAILED).toEqual({ code: 20052, msg: 'signature verification failed' });
    expect(Codes.ORDER_STATUS_FORBIDS).toEqual({
      code: 30004,
      msg: 'order status does not allow this operation',
    });
  });

  it('maps every numeric code back to its name, and unknown codes to undefined', () => {
    for (const name of names) expect(codeNameOf(Codes[name].code)).toBe(name);
    expect(codeNameOf(12345)).toBeUndefined();
  });
});

describe('AppError', () => {
  it('names the field in its message when given a detail', () => {
    const err = new AppError('INVALID_PARAMETER', 'amount');
    expect(err.message).toBe('invalid parameter: amount');
    expect(err.msg).toBe('invalid parameter');
    expect(err.code).toBe(10001);
    expect(err.codeName).toBe('INVALID_PARAMETER');
    expect(err.detail).toBe('amount');
  });

  it('uses the bare table message without a detail', () => {
    const err = new AppError('ORDER_NOT_FOUND');
    expect(err.message).toBe('order not found');
    expect(err.detail).toBeUndefined();
  });

  it('is an Error with its own name and keeps a cause', () => {
    const cause = new Error('db down');
    const err = new AppError('INTERNAL_ERROR', undefined, { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('AppError');
    expect(err.cause).toBe(cause);
  });

  it('is recognised by isAppError, and plain errors are not', () => {
    expect(isAppError(new AppError('NONCE_USED'))).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
    expect(isAppError({ codeName: 'NONCE_USED' })).toBe(false);
  });
});
