import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentpayClient, unwrap } from './client.js';
import {
  AgentpayApiError,
  AgentpayHttpError,
  AgentpayNetworkError,
  AgentpaySignatureError,
} from './errors.js';
import { signParams, verifySignature } from './signing.js';

// The client against a small HTTP server standing in for the gateway: what goes on the wire, and what
// the client does with good, failed, unsigned, tampered and missing replies.

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = pair();
const platform = pair();
const stranger = pair();

interface Seen {
  path: string;
  contentType: string | undefined;
  traceparent: string | undefined;
  body: Record<string, unknown>;
}

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let respond: (req: Seen, res: ServerResponse) => void;

function envelope(code: number, msg: string, data: unknown, key: KeyObject = platform.privateKey) {
  const body = { code, msg, data, resTime: '2026-11-21 10:15:01', traceId: 'a'.repeat(32) };
  return { ...body, sign: signParams(body, key) };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      const entry: Seen = {
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        traceparent: req.headers['traceparent'] as string | undefined,
        body: JSON.parse(text) as Record<string, unknown>,
      };
      seen.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  respond = (_req, res) => json(res, 200, envelope(0, 'success', [{ code: 'x', name: 'X' }]));
});

const client = (extra: Partial<ConstructorParameters<typeof AgentpayClient>[0]> = {}) =>
  new AgentpayClient({
    baseUrl,
    mchNo: 'M100',
    privateKey: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    platformPublicKey: platform.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ...extra,
  });

describe('requests', () => {
  it('fills in the common parameters, signs with the merchant key and POSTs JSON to the path', async () => {
    await client({ appId: 'APP1' }).pay(
      {
        bizOrderNo: 'B1',
        title: 'T',
        method: 'mex_virtual_account',
        amount: 100.5,
        description: undefined,
        extraParam: { customer: 'C-9' },
      },
      { clientIp: '203.0.113.7', traceparent: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-01` },
    );
    const [req] = seen;
    expect(req?.path).toBe('/gateway/pay');
    expect(req?.contentType).toBe('application/json');
    expect(req?.traceparent).toBe(`00-${'b'.repeat(32)}-${'c'.repeat(16)}-01`);
    const body = req!.body;
    expect(body).toMatchObject({
      mchNo: 'M100',
      appId: 'APP1',
      clientIp: '203.0.113.7',
      bizOrderNo: 'B1',
      amount: 100.5,
      extraParam: '{"customer":"C-9"}',
    });
    expect(body).not.toHaveProperty('description');
    expect(body['reqTime']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body['nonceStr']).toMatch(/^[0-9a-f]{32}$/);
    expect(verifySignature(body, body['sign'], merchant.publicKey)).toBe(true);
  });

  it('uses a fresh nonce on every request', async () => {
    const c = client();
    await c.payMethods();
    await c.payMethods();
    expect(seen[0]!.body['nonceStr']).not.toBe(seen[1]!.body['nonceStr']);
  });

  it('sends each method to its endpoint', async () => {
    const c = client();
    await c.payMethods();
    await c.payeeTypes();
    await c.payeeCodes({ payeeType: 'spei_transfer' });
    await c.close({ orderNo: 'P1', useCancel: true });
    await c.inquire({ bizInquryNo: 'I1', payeeType: 'user_id', payeeAccount: 'u1' });
    await c.transfer({ bizTransferNo: 'T1', amount: 1, payeeType: 'user_id', payeeAccount: 'u1' });
    await c.queryPayOrder({ bizOrderNo: 'B1' });
    await c.queryTransferOrder({ transferNo: 'T1' });
    await c.syncPayOrder({ orderNo: 'P1' });
    expect(seen.map((s) => s.path)).toEqual([
      '/gateway/options/pay-methods',
      '/gateway/options/payee-types',
      '/gateway/options/payee-codes',
      '/gateway/close',
      '/gateway/inqury',
      '/gateway/transfer',
      '/gateway/query/payOrder',
      '/gateway/query/transferOrder',
      '/gateway/sync/order/pay',
    ]);
    expect(seen[3]!.body).toMatchObject({ orderNo: 'P1', useCancel: true });
  });
});

describe('replies', () => {
  it('returns a verified success envelope', async () => {
    const reply = await client().payMethods();
    expect(reply).toMatchObject({ code: 0, msg: 'success', data: [{ code: 'x', name: 'X' }] });
    expect(unwrap(reply)).toEqual([{ code: 'x', name: 'X' }]);
  });

  it('returns a business failure as an envelope; unwrap throws it as AgentpayApiError', async () => {
    respond = (_req, res) => json(res, 200, envelope(30002, 'duplicate order', null));
    const reply = await client().pay({ bizOrderNo: 'B', title: 'T', method: 'm', amount: 1 });
    expect(reply).toMatchObject({ code: 30002, data: null });
    expect(() => unwrap(reply)).toThrow(AgentpayApiError);
  });

  it('returns a signed error envelope sent with HTTP 503', async () => {
    respond = (_req, res) => json(res, 503, envelope(50003, 'service unavailable', null));
    expect((await client().payMethods()).code).toBe(50003);
  });

  it('refuses an unsigned reply', async () => {
    respond = (_req, res) => {
      const { sign: _, ...unsigned } = envelope(0, 'success', []);
      json(res, 200, unsigned);
    };
    await expect(client().payMethods()).rejects.toThrow(AgentpaySignatureError);
  });

  it('refuses a reply changed after signing', async () => {
    respond = (_req, res) => json(res, 200, { ...envelope(0, 'success', { status: 'wait' }), code: 1 });
    await expect(client().payMethods()).rejects.toThrow(/does not verify/);
  });

  it('refuses a reply signed with a key other than the platform key', async () => {
    respond = (_req, res) => json(res, 200, envelope(0, 'success', [], stranger.privateKey));
    await expect(client().payMethods()).rejects.toBeInstanceOf(AgentpaySignatureError);
  });

  it('throws AgentpayHttpError, with the status, for a reply that is not an envelope', async () => {
    respond = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    };
    const error = await client()
      .payMethods()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentpayHttpError);
    expect(error).toMatchObject({ status: 502, bodyText: '<html>Bad gateway</html>' });
  });

  it('throws AgentpayNetworkError with timedOut when no reply comes in time', async () => {
    respond = () => {
      // Never answers.
    };
    const error = await client({ timeoutMs: 200 })
      .payMethods()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentpayNetworkError);
    expect((error as AgentpayNetworkError).timedOut).toBe(true);
  });

  it('throws AgentpayNetworkError without timedOut when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await client({ baseUrl: `http://127.0.0.1:${port}` })
      .payMethods()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentpayNetworkError);
    expect((error as AgentpayNetworkError).timedOut).toBe(false);
  });
});

describe('configuration', () => {
  it('refuses a public key given as the private key, and a private key given as the platform key', () => {
    const pem = (k: KeyObject, type: 'spki' | 'pkcs8') => k.export({ type, format: 'pem' }).toString();
    expect(() => client({ privateKey: pem(merchant.publicKey, 'spki') })).toThrow();
    expect(() => client({ platformPublicKey: pem(platform.privateKey, 'pkcs8') })).toThrow(/public key/);
  });

  it('refuses an RSA key shorter than 2048 bits', () => {
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => client({ privateKey: short.privateKey })).toThrow(/2048/);
  });

  it('refuses an unknown time zone at construction', () => {
    expect(() => client({ timeZone: 'Mars/Olympus' })).toThrow();
  });
});

describe('allBalanceRecords', () => {
  const record = (n: number) => ({ recordNo: String(n), type: 'adjust', amount: 1, availableBalance: n });

  it('follows nextCursor page after page with the same times and limit, a fresh nonce each', async () => {
    respond = (req, res) => {
      const cursor = req.body['cursor'];
      const page =
        cursor === undefined
          ? { records: [record(1), record(2)], nextCursor: 'c2' }
          : cursor === 'c2'
            ? { records: [record(3), record(4)], nextCursor: 'c4' }
            : { records: [record(5)] };
      json(res, 200, envelope(0, 'success', page));
    };
    const params = { startTime: '2026-11-01 00:00:00', endTime: '2026-11-08 00:00:00', limit: 2 };
    const seenRecords: string[] = [];
    for await (const r of client().allBalanceRecords(params, { nonceStr: 'fixed' })) {
      seenRecords.push(r.recordNo);
    }
    expect(seenRecords).toEqual(['1', '2', '3', '4', '5']);
    expect(seen.map((s) => s.path)).toEqual(Array(3).fill('/gateway/query/balanceRecords'));
    expect(seen.map((s) => s.body['cursor'])).toEqual([undefined, 'c2', 'c4']);
    for (const s of seen) expect(s.body).toMatchObject(params);
    expect(new Set(seen.map((s) => s.body['nonceStr'])).size).toBe(3);
    expect(seen.map((s) => s.body['nonceStr'])).not.toContain('fixed');
  });

  it('starts from the given cursor, and throws AgentpayApiError when a page fails', async () => {
    respond = (req, res) =>
      req.body['cursor'] === 'c2'
        ? json(res, 200, envelope(0, 'success', { records: [record(3)], nextCursor: 'c3' }))
        : json(res, 200, envelope(10001, 'invalid parameter: cursor (unknown)', null));
    const got: string[] = [];
    const error = await (async () => {
      for await (const r of client().allBalanceRecords({
        startTime: '2026-11-01 00:00:00',
        endTime: '2026-11-08 00:00:00',
        cursor: 'c2',
      })) {
        got.push(r.recordNo);
      }
    })().catch((e: unknown) => e);
    expect(got).toEqual(['3']);
    expect(error).toBeInstanceOf(AgentpayApiError);
    expect((error as AgentpayApiError).code).toBe(10001);
  });
});
