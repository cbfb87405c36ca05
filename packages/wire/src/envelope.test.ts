import { describe, expect, it } from 'vitest';
import { AppError } from './codes.js';
import { createEnvelopeSigner, type Envelope, verifyEnvelope } from './envelope.js';
import { keys, vectorCase } from './vectors.fixture.js';

const MX = 'America/Mexico_City';
const signerAt = (iso: string, timeZone = MX) =>
  createEnvelopeSigner({ privateKey: keys.platform.privateKey, timeZone, now: () => new Date(iso) });

describe('createEnvelopeSigner', () => {
  it('reproduces the "response with object data" vector byte for byte', () => {
    const v = vectorCase('response with object data');
    const env = signerAt('2026-11-21T16:15:01Z').success(v.object.data, v.object.traceId as string);
    expect(env).toEqual({ ...v.object, sign: v.sign });
  });

  it('reproduces the "response with array data" vector byte for byte', () => {
    const v = vectorCase('response with array data');
    const env = signerAt('2026-11-21T16:18:01Z').success(v.object.data, v.object.traceId as string);
    expect(env).toEqual({ ...v.object, sign: v.sign });
  });

  it('reproduces the "error response, data null" vector byte for byte', () => {
    const v = vectorCase('error response, data null');
    const env = signerAt('2026-11-21T16:19:00Z').error('SIGNATURE_FAILED', v.object.traceId as string);
    expect(env).toEqual({ ...v.object, sign: v.sign });
  });

  it('reproduces the "payment callback" vector through sign()', () => {
    const v = vectorCase('payment callback');
    expect(signerAt('2026-11-21T16:30:00Z').sign(v.object)).toEqual({ ...v.object, sign: v.sign });
  });

  it('reproduces the "payment callback" vector through signAsync() (the RSA operation on the thread pool)', async () => {
    const v = vectorCase('payment callback');
    expect(await signerAt('2026-11-21T16:30:00Z').signAsync(v.object)).toEqual({ ...v.object, sign: v.sign });
  });

  it('writes resTime in the configured zone', () => {
    expect(signerAt('2026-11-21T16:15:01Z', 'UTC').success(null, 't').resTime).toBe('2026-11-21 16:15:01');
    expect(signerAt('2026-11-21T16:15:01Z').success(null, 't').resTime).toBe('2026-11-21 10:15:01');
  });

  it('leaves null and undefined fields out of data, at any depth, and still verifies', () => {
    const env = signerAt('2026-11-21T16:15:01Z').success(
      { a: 1, b: null, c: undefined, d: '', e: { f: null, g: [{ h: null, i: 2 }] } },
      'trace',
    );
    expect(env.data).toEqual({ a: 1, d: '', e: { g: [{ i: 2 }] } });
    expect(JSON.stringify(env.data)).toBe('{"a":1,"d":"","e":{"g":[{"i":2}]}}');
    expect(verifyEnvelope(env, keys.platform.publicKey)).toBe(true);
  });

  it('uses data: null when there is no data', () => {
    const env = signerAt('2026-11-21T16:15:01Z').success(undefined, 'trace');
    expect(env.data).toBeNull();
    expect(verifyEnvelope(env, keys.platform.publicKey)).toBe(true);
  });

  it('puts the AppError detail into msg', () => {
    const signer = signerAt('2026-11-21T16:15:01Z');
    const env = signer.error(new AppError('INVALID_PARAMETER', 'amount'), 'trace');
    expect(env).toMatchObject({ code: 10001, msg: 'invalid parameter: amount', data: null });
    expect(signer.error('INVALID_PARAMETER', 'trace', 'mchNo').msg).toBe('invalid parameter: mchNo');
    expect(signer.error(new AppError('INVALID_PARAMETER', 'amount'), 'trace', 'title').msg).toBe(
      'invalid parameter: title',
    );
    expect(verifyEnvelope(env, keys.platform.publicKey)).toBe(true);
  });

  it('prunes data in sign() bodies the way it does in envelopes', () => {
    const body = signerAt('2026-11-21T16:15:01Z').sign({ code: 0, data: { a: null, b: 'x' } });
    expect(body.data).toEqual({ b: 'x' });
  });
});

describe('verifyEnvelope', () => {
  const env = signerAt('2026-11-21T16:15:01Z').success({ orderNo: 'P1', amount: 100.5 }, 'trace-1');

  it('accepts an envelope that went through JSON on the wire', () => {
    const wire = JSON.parse(JSON.stringify(env)) as Envelope;
    expect(verifyEnvelope(wire, keys.platform.publicKey)).toBe(true);
  });

  it.each<[string, Partial<Envelope>]>([
    ['code', { code: 50000 }],
    ['msg', { msg: 'internal error' }],
    ['data', { data: { orderNo: 'P1', amount: 1005 } }],
    ['resTime', { resTime: '2026-11-21 10:15:02' }],
    ['traceId', { traceId: 'trace-2' }],
    ['sign', { sign: env.sign.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }],
  ])('detects a changed %s', (_field, change) => {
    expect(verifyEnvelope({ ...env, ...change }, keys.platform.publicKey)).toBe(false);
  });

  it('rejects an envelope signed by another key', () => {
    expect(verifyEnvelope(env, keys.merchant.publicKey)).toBe(false);
  });
});
