import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Callback,
  callbackListener,
  isPayOrderCallback,
  isTransferCallback,
  verifyCallback,
} from './index.js';
import { signParams } from './signing.js';

const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platformPem = platform.publicKey.export({ type: 'spki', format: 'pem' }).toString();

function callback(data: Record<string, unknown>, key = platform.privateKey) {
  const body = {
    code: 0,
    msg: 'success',
    noticeType: 'order_status_changed',
    mchNo: 'M100',
    resTime: '2026-11-21 10:30:00',
    traceId: 'f'.repeat(32),
    data,
  };
  return { ...body, sign: signParams(body, key) };
}

const payData = { orderNo: 'P1', bizOrderNo: 'B1', amount: 100.5, status: 'success' };
const transferData = { transferNo: 'T1', bizTransferNo: 'BT1', amount: 0.01, status: 'fail' };

describe('verifyCallback', () => {
  it('accepts a platform-signed body as text, as a Buffer and as a parsed object', () => {
    const body = callback(payData);
    const text = JSON.stringify(body);
    for (const input of [text, Buffer.from(text), JSON.parse(text) as object]) {
      const verified = verifyCallback(input, platformPem);
      expect(verified.data).toEqual(payData);
      expect(isPayOrderCallback(verified)).toBe(true);
      expect(isTransferCallback(verified)).toBe(false);
    }
  });

  it('tells a transfer callback apart', () => {
    const verified = verifyCallback(callback(transferData), platform.publicKey);
    expect(isTransferCallback(verified)).toBe(true);
  });

  it('refuses a tampered body, an unsigned one, another key, and non-JSON', () => {
    const body = callback(payData);
    expect(() => verifyCallback({ ...body, data: { ...payData, amount: 1000.5 } }, platformPem)).toThrow(
      /does not verify/,
    );
    const { sign: _, ...unsigned } = body;
    expect(() => verifyCallback(unsigned, platformPem)).toThrow(/not signed/);
    expect(() => verifyCallback(callback(payData, stranger.privateKey), platformPem)).toThrow(
      /does not verify/,
    );
    expect(() => verifyCallback('{"code":', platformPem)).toThrow(/not JSON/);
  });
});

describe('callbackListener on a node:http server', () => {
  let server: Server;
  let url: string;
  const received: Callback[] = [];
  let fail = false;

  beforeAll(async () => {
    server = createServer(
      callbackListener({
        platformPublicKey: platformPem,
        onCallback(cb) {
          if (fail) throw new Error('database down');
          received.push(cb);
        },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const post = async (body: unknown) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  it('answers SUCCESS after the handler took a verified callback', async () => {
    expect(await post(callback(payData))).toEqual({ status: 200, text: 'SUCCESS' });
    expect(received.at(-1)?.data).toEqual(payData);
  });

  it('answers 400 FAIL to a tampered body without calling the handler', async () => {
    const before = received.length;
    expect(await post({ ...callback(payData), code: 7 })).toEqual({ status: 400, text: 'FAIL' });
    expect(received.length).toBe(before);
  });

  it('answers 500 FAIL when the handler throws, so the platform retries', async () => {
    fail = true;
    try {
      expect((await post(callback(payData))).status).toBe(500);
    } finally {
      fail = false;
    }
  });
});
