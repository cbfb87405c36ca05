import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type RouteContext,
  UpstreamNotFoundError,
  UpstreamProtocolError,
  UpstreamUnavailableError,
} from '../channel-adapter.js';
import { channelRequest } from './sandbox.client.js';

// The channel client's answers and, above all, its judgement of whether a failed request may have
// reached the channel (`ambiguous`): a payout is only retried elsewhere when it certainly did not.

const schema = z.object({ ok: z.literal(true) });
let server: Server;
let baseUrl: string;
const seen: { method: string; url: string; apiKey: string | undefined; body: string }[] = [];

/** Plain answers by path: status and body. */
const ANSWERS: Record<string, [number, string]> = {
  '/ok': [200, JSON.stringify({ ok: true })],
  '/created': [201, JSON.stringify({ ok: true })],
  '/down': [503, 'maintenance'],
  '/forbidden': [403, 'no'],
  '/missing': [404, '{}'],
  '/bad-request': [422, 'amount too large'],
  '/not-json': [200, '<html>'],
  '/wrong-shape': [200, JSON.stringify({ ok: 'yes' })],
};

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({
    method: req.method ?? '',
    url: req.url ?? '',
    apiKey: req.headers['x-api-key'] as string,
    body,
  });
  const answer = ANSWERS[req.url ?? ''];
  if (answer) {
    res.writeHead(answer[0]).end(answer[1]);
  } else if (req.url === '/cut') {
    // Headers, then the connection drops mid-body.
    res.writeHead(200, { 'content-length': '100' });
    res.write('{"ok":');
    setTimeout(() => res.socket?.destroy(), 20);
  } else if (req.url !== '/hang') {
    // '/hang' never answers: the caller's timeout must end the call.
    res.writeHead(500).end('unknown test path');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function route(base = baseUrl, apiKey: string | null = 'key-1'): RouteContext {
  return {
    id: 'r1',
    config: { baseUrl: `${base}/` },
    credentials: apiKey === null ? {} : { apiKey },
  } as unknown as RouteContext;
}

const call = (path: string, extra: { method?: 'GET' | 'POST'; body?: unknown; timeoutMs?: number } = {}) =>
  channelRequest(
    route(),
    { method: extra.method ?? 'GET', path, timeoutMs: extra.timeoutMs ?? 2000, body: extra.body },
    schema,
  );

async function failure(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!err) throw new Error('expected the call to fail');
  return err;
}

describe('channelRequest', () => {
  it('sends the JSON body with the route credentials and answers the parsed reply', async () => {
    seen.length = 0;
    await expect(call('/ok', { method: 'POST', body: { amount: 1 } })).resolves.toEqual({ ok: true });
    await expect(call('/created')).resolves.toEqual({ ok: true });
    expect(seen[0]).toEqual({ method: 'POST', url: '/ok', apiKey: 'key-1', body: '{"amount":1}' });
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/created', body: '' });
  });

  it('a refused connection is unavailable and certainly not sent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(
      channelRequest(
        route(`http://127.0.0.1:${port}`),
        { method: 'POST', path: '/x', timeoutMs: 2000 },
        schema,
      ),
    );
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).ambiguous).toBe(false);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('a timeout is unavailable and ambiguous: the channel may have acted on it', async () => {
    const err = await failure(call('/hang', { method: 'POST', body: {}, timeoutMs: 150 }));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).ambiguous).toBe(true);
  });

  it('5xx and refused credentials are unavailable; 404 is not found; other 4xx is a protocol error', async () => {
    const down = await failure(call('/down'));
    expect(down).toBeInstanceOf(UpstreamUnavailableError);
    expect(down.message).toMatch(/HTTP 503/);
    const forbidden = await failure(call('/forbidden'));
    expect(forbidden).toBeInstanceOf(UpstreamUnavailableError);
    expect(forbidden.message).toMatch(/refused the credentials/);
    expect(await failure(call('/missing'))).toBeInstanceOf(UpstreamNotFoundError);
    const bad = await failure(call('/bad-request'));
    expect(bad).toBeInstanceOf(UpstreamProtocolError);
    expect(bad.message).toMatch(/HTTP 422 amount too large/);
  });

  it('an answer that is not JSON, not of the expected shape, or cut off is a protocol error', async () => {
    expect((await failure(call('/not-json'))).message).toMatch(/not JSON/);
    expect((await failure(call('/wrong-shape'))).message).toMatch(/unexpected answer/);
    expect(await failure(call('/cut'))).toBeInstanceOf(UpstreamProtocolError);
  });

  it('a route without credentials or base URL is unavailable before anything is sent', async () => {
    seen.length = 0;
    const noKey = await failure(
      channelRequest(route(baseUrl, null), { method: 'GET', path: '/ok', timeoutMs: 1000 }, schema),
    );
    expect(noKey.message).toMatch(/no credentials/);
    const noUrl = await failure(
      channelRequest(
        { id: 'r2', config: {}, credentials: { apiKey: 'k' } } as unknown as RouteContext,
        { method: 'GET', path: '/ok', timeoutMs: 1000 },
        schema,
      ),
    );
    expect(noUrl.message).toMatch(/no config.baseUrl/);
    expect(seen).toEqual([]);
  });
});
