import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAcknowledged, postCallback } from './callback.client.js';

let server: Server;
let port: number;
let hits = 0;
let reply: { status: number; body: string } = { status: 200, body: 'SUCCESS' };

beforeAll(async () => {
  server = createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => res.writeHead(reply.status).end(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const post = (url: string, allowPrivate = true) =>
  postCallback({ url, body: '{"code":0}', timeoutMs: 2_000, allowPrivate });

describe('isAcknowledged', () => {
  it('needs a 2xx and a body that trims to SUCCESS in any case', () => {
    expect(isAcknowledged(200, 'SUCCESS')).toBe(true);
    expect(isAcknowledged(204, ' success\r\n')).toBe(true);
    expect(isAcknowledged(299, 'Success')).toBe(true);
    expect(isAcknowledged(200, 'SUCCESSFUL')).toBe(false);
    expect(isAcknowledged(200, '"SUCCESS"')).toBe(false);
    expect(isAcknowledged(200, '')).toBe(false);
    expect(isAcknowledged(301, 'SUCCESS')).toBe(false);
    expect(isAcknowledged(500, 'SUCCESS')).toBe(false);
  });
});

describe('postCallback', () => {
  it('keeps the first 512 bytes of a reply and refuses one over 4 KiB', async () => {
    reply = { status: 200, body: 'x'.repeat(5_000) };
    const outcome = await post(`http://127.0.0.1:${port}/`);
    expect(outcome).toMatchObject({ ok: false, httpStatus: 200, error: 'reply longer than 4096 bytes' });
    expect(outcome.excerpt).toHaveLength(512);
    reply = { status: 200, body: 'SUCCESS' };
  });

  it('refuses a URL that does not parse, or names a forbidden address, without connecting', async () => {
    const before = hits;
    expect(await post('not a url')).toMatchObject({
      ok: false,
      permanent: true,
      error: 'notify URL is not a valid URL',
    });
    // 2130706433 is 127.0.0.1; URL parsing normalises it, so the guard sees the real address.
    const sneaky = await post(`http://2130706433:${port}/`, false);
    expect(sneaky).toMatchObject({
      ok: false,
      permanent: true,
      error: 'refused: 127.0.0.1 is a loopback address',
    });
    const mapped = await post(`http://[::ffff:127.0.0.1]:${port}/`, false);
    expect(mapped).toMatchObject({ ok: false, permanent: true });
    expect(mapped.error).toMatch(/loopback/);
    expect(hits).toBe(before);
  });

  it('checks a hostname on the address it resolves to, at connection time', async () => {
    const before = hits;
    const outcome = await post(`http://localhost:${port}/`, false);
    expect(outcome).toMatchObject({ ok: false, permanent: false, httpStatus: null });
    expect(outcome.error).toMatch(/^refused: localhost resolves to .*loopback/);
    expect(hits).toBe(before);
    // The same URL goes through with private addresses allowed (development).
    expect(await post(`http://127.0.0.1:${port}/`, true)).toMatchObject({ ok: true, httpStatus: 200 });
  });
});
