import { createPrivateKey, createPublicKey } from 'node:crypto';
import * as sdk from '@agentpay/merchant-sdk';
import {
  Codes,
  canonicalString,
  createEnvelopeSigner,
  generateKeyPair,
  signObject,
  verifyObject,
} from '@agentpay/wire';
import { describe, expect, it } from 'vitest';

// The merchant SDK carries its own copy of the signing rules so that merchants install nothing else;
// here it is held to the platform's implementation (@agentpay/wire) on generated objects, callbacks
// signed the way the notifier signs them, and the code table.

const platform = generateKeyPair();
const platformPrivate = createPrivateKey(platform.privateKeyPem);
const platformPublic = createPublicKey(platform.publicKeyPem);
const merchant = generateKeyPair();

// A small seeded generator: the same objects on every run, many shapes per run.
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const strings = [
    '',
    'a',
    'Zeta',
    'ñandú',
    'café — ok',
    '𝄞 clef',
    '\u{1F600}',
    'x&y=z',
    '"quoted"',
    'line\nbreak',
    '\uE000',
  ];
  const numbers = [0, -0, 1, -1, 0.1, 100.5, 0.01, 99_999_999.99, 1e21, 1e-7, 123456789012345680000, 2 ** 53];
  const value = (depth: number): unknown => {
    const kind = Math.floor(next() * (depth > 2 ? 5 : 7));
    switch (kind) {
      case 0:
        return pick(strings);
      case 1:
        return pick(numbers);
      case 2:
        return next() < 0.5;
      case 3:
        return null;
      case 4:
        return pick(strings) + String(Math.floor(next() * 1000));
      case 5:
        return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      default:
        return object(depth + 1);
    }
  };
  const object = (depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const n = 1 + Math.floor(next() * 6);
    for (let i = 0; i < n; i++)
      out[pick([...strings.filter(Boolean), 'mchNo', 'amount', 'B', 'b', 'a1', '_'])] = value(depth);
    return out;
  };
  return () => object(0);
}

describe('SDK signing equals the platform’s', () => {
  it('builds the same canonical string for 500 generated objects', () => {
    const next = generator(20261121);
    for (let i = 0; i < 500; i++) {
      const obj = next();
      expect(sdk.canonicalString(obj), JSON.stringify(obj)).toBe(canonicalString(obj));
    }
  });

  it('signs requests the platform verifies, and verifies what the platform signs', () => {
    const next = generator(7);
    for (let i = 0; i < 20; i++) {
      const obj = next();
      const sdkSign = sdk.signParams(obj, sdk.loadPrivateKey(merchant.privateKeyPem));
      expect(verifyObject(obj, sdkSign, createPublicKey(merchant.publicKeyPem))).toBe(true);
      const wireSign = signObject(obj, platformPrivate);
      expect(sdk.verifySignature(obj, wireSign, sdk.loadPublicKey(platform.publicKeyPem))).toBe(true);
    }
  });

  it('has the same code table', () => {
    expect(sdk.ResultCode).toEqual(
      Object.fromEntries(Object.entries(Codes).map(([name, c]) => [name, c.code])),
    );
  });
});

describe('verifyCallback with bodies signed as the notifier signs them', () => {
  const signer = createEnvelopeSigner({ privateKey: platformPrivate, timeZone: 'America/Mexico_City' });
  const body = () =>
    signer.sign({
      code: 0,
      msg: 'success',
      data: {
        bizTransferNo: 'BT-1',
        transferNo: 'T20261121000000000001',
        amount: 0.01,
        fee: 0,
        payeeType: 'spei_transfer',
        payeeAccount: '646180110400000007',
        payeeName: 'Ricardo Sánchez',
        status: 'fail',
        finishTime: '2026-11-21 10:30:00',
        attach: null,
      },
      resTime: '2026-11-21 10:30:01',
      traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
      noticeType: 'order_status_changed',
      mchNo: 'M100',
    });

  it('accepts the body as sent (text) and as a parsed object', () => {
    const text = JSON.stringify(body());
    const fromText = sdk.verifyCallback(text, platform.publicKeyPem);
    expect(sdk.isTransferCallback(fromText)).toBe(true);
    expect(fromText.data).not.toHaveProperty('attach');
    expect(sdk.verifyCallback(JSON.parse(text) as object, platformPublic).data).toEqual(fromText.data);
  });

  it('refuses the body with one field changed, and one signed by another key', () => {
    const signed = body();
    expect(() =>
      sdk.verifyCallback({ ...signed, data: { ...signed.data, status: 'success' } }, platform.publicKeyPem),
    ).toThrow(sdk.AgentpaySignatureError);
    expect(() => sdk.verifyCallback({ ...signed, mchNo: 'M200' }, platform.publicKeyPem)).toThrow(
      sdk.AgentpaySignatureError,
    );
    expect(() => sdk.verifyCallback(signed, merchant.publicKeyPem)).toThrow(sdk.AgentpaySignatureError);
  });
});
