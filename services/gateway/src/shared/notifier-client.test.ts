import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotifierClient, NOTIFIER_FAILURES, NotifierError } from './notifier-client.js';

// The notifier's side is a real HTTP server on port 0 whose answer each test sets; the gateway's side is a
// real Fastify route relaying it, as the admin and dashboard routes do.

type Answer = (request: IncomingMessage, response: ServerResponse) => void;
let answer: Answer;
let seen: { method?: string; url?: string; authorization?: string }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization });
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
});

const json = (status: number, body: unknown): Answer => {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
};

/** A gateway route relaying GET /admin/deliveries through the client, as deliveries.routes.ts does. */
async function relay(client: ReturnType<typeof createNotifierClient>, query = '') {
  const app = createHttpServer(createLogger({ service: 'gateway', level: 'silent' }));
  app.get('/relay', async (request, reply) =>
    client.forward(reply, 'GET', '/admin/deliveries', { query: request.query }),
  );
  try {
    return await app.inject({ method: 'GET', url: `/relay${query}` });
  } finally {
    await app.close();
  }
}

describe('the notifier client', () => {
  it('relays the notifier answer as it came, with the gateway token and a re-encoded query', async () => {
    answer = json(404, { error: 'not_found', message: 'no such delivery' });
    const client = createNotifierClient({ url, token: 'internal-token', timeoutMs: 2_000 });
    const res = await relay(client, '?orderNo=P1&kind=pay&kind=transfer&odd=a%26b');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ error: 'not_found', message: 'no such delivery' });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/admin/deliveries?orderNo=P1&kind=pay&kind=transfer&odd=a%26b',
        authorization: 'Bearer internal-token',
      },
    ]);
  });

  it('answers 502 with the one refusal text when the notifier refuses the gateway token', async () => {
    answer = json(401, { error: 'unauthorized' });
    const client = createNotifierClient({ url, token: 'wrong', timeoutMs: 2_000 });
    const res = await relay(client);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'bad_gateway', message: 'the notifier refused the gateway' });
    await expect(client.request('POST', '/admin/deliveries/d1/resend')).rejects.toMatchObject({
      kind: 'refused',
    });
  });

  it('answers 503 when the notifier is not there, and when it does not answer in time', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await relay(
      createNotifierClient({ url: `http://127.0.0.1:${port}`, token: 't', timeoutMs: 2_000 }),
    );
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toEqual(NOTIFIER_FAILURES.unavailable.body);

    answer = (_request, response) => {
      setTimeout(() => json(200, { deliveries: [] })(_request, response), 1_000);
    };
    const started = Date.now();
    const slow = await relay(createNotifierClient({ url, token: 't', timeoutMs: 100 }));
    expect(slow.statusCode).toBe(503);
    expect(slow.json()).toEqual({ error: 'unavailable', message: 'the notifier did not answer; try again' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('parses JSON answers, and names an answer that is not JSON as the notifier fault', async () => {
    answer = json(200, { deliveries: [{ id: 'd1' }] });
    const client = createNotifierClient({ url, token: 't', timeoutMs: 2_000 });
    await expect(
      client.json('GET', '/admin/deliveries', { query: { mchNo: undefined, limit: 5 } }),
    ).resolves.toEqual({
      status: 200,
      body: { deliveries: [{ id: 'd1' }] },
    });
    // An absent value is left out, not sent as "undefined".
    expect(seen.at(-1)?.url).toBe('/admin/deliveries?limit=5');

    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy error</html>');
    };
    const err = await client.json('GET', '/admin/deliveries').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotifierError);
    expect(err).toMatchObject({
      kind: 'not_json',
      message: 'the notifier answered something else than JSON',
    });
  });
});
