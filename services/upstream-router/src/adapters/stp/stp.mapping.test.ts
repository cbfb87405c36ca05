import { describe, expect, it } from 'vitest';
import { payoutStatusOf, REFUSALS, refusalOf } from './stp.mapping.js';

describe('payoutStatusOf', () => {
  it('maps STP codes and the words some environments send', () => {
    for (const estado of ['LQ', 'TLQ', 'Success']) expect(payoutStatusOf(estado), estado).toBe('success');
    for (const estado of ['D', 'Devuelta']) expect(payoutStatusOf(estado), estado).toBe('returned');
    for (const estado of ['CN', 'CA', 'CR', 'TCL', 'RB', 'Cancel'])
      expect(payoutStatusOf(estado), estado).toBe('fail');
  });

  it('keeps anything else in flight, inherited object keys included', () => {
    for (const estado of ['A', 'PL', 'L', 'lq', '', 'toString', 'constructor', '__proto__'])
      expect(payoutStatusOf(estado), estado).toBe('progress');
  });
});

describe('refusalOf', () => {
  it('accepts a positive id', () => {
    expect(refusalOf(9349827, '')).toEqual({ kind: 'accepted' });
  });

  it('fails the transfer for refusals about the payee, with the log word as code', () => {
    expect(refusalOf(-7, 'La cuenta no existe')).toEqual({
      kind: 'payee_refused',
      code: 'account_not_found',
    });
    expect(refusalOf(-9, '')).toEqual({ kind: 'payee_refused', code: 'invalid_institution' });
    expect(refusalOf(-11, '')).toEqual({ kind: 'payee_refused', code: 'invalid_account_type' });
    expect(refusalOf(-22, '')).toEqual({ kind: 'payee_refused', code: 'account_institution_mismatch' });
    expect(refusalOf(-24, '')).toEqual({ kind: 'payee_refused', code: 'same_account' });
    expect(refusalOf(-200, '')).toEqual({ kind: 'payee_refused', code: 'aml_refused' });
  });

  it('recognises an order STP already has', () => {
    expect(refusalOf(-1, 'Clave de rastreo duplicada')).toEqual({ kind: 'already_exists' });
  });

  it('treats signature, amount and claveRastreo refusals as the route being unavailable, with STP words', () => {
    expect(refusalOf(0, 'Error validando la firma')).toEqual({
      kind: 'unavailable',
      reason: 'stp 0 request_refused: Error validando la firma',
    });
    expect(refusalOf(-20, 'Monto invalido')).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringMatching(/invalid_amount/),
    });
    expect(refusalOf(-34, '')).toEqual({ kind: 'unavailable', reason: 'stp -34 invalid_clave_rastreo' });
  });

  it('treats an id it does not know as unavailable, never as the payee', () => {
    expect(refusalOf(-99, 'algo nuevo')).toEqual({
      kind: 'unavailable',
      reason: 'stp -99 unknown_refusal: algo nuevo',
    });
    expect(refusalOf(Number.NaN, '')).toMatchObject({ kind: 'unavailable' });
  });

  it('has a rule for every id the contract lists', () => {
    expect(
      Object.keys(REFUSALS)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([-200, -34, -24, -22, -20, -11, -9, -7, -1, 0]);
  });
});
