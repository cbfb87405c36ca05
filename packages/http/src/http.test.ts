import { connect } from 'node:net';
import { createLogger } from '@agentpay/logger';
import { describe, expect, it } from 'vitest';
import {
  boundPort,
  createHttpServer,
  describeInputProblem,
  findInputProblem,
  MAX_INPUT_DEPTH,
} from './index.js';

describe('createHttpServer', () => {
  it('logs through the service logger without a child per request, and honours a route log level', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger(
      { service: 'http-test', level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const app = createHttpServer(logger);
    let sameLogger = false;
    app.get('/loud', async (request) => {
      sameLogger = request.log === app.log;
      request.log.info({ step: 'loud' }, 'handled');
      return { ok: true };
    });
    app.get('/quiet', { logLevel: 'silent' }, async (request) => {
      request.log.info({ step: 'quiet' }, 'handled');
      return { ok: true };
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/loud' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
      expect(sameLogger).toBe(true);
      // Only the handler's own line: no per-request lines, and nothing from the silent route.
      expect(lines.map((l) => [l['msg'], l['step'], l['service']])).toEqual([
        ['handled', 'loud', 'http-test'],
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('findInputProblem', () => {
  it('finds U+0000, lone surrogates, non-finite numbers and deep nesting, naming where', () => {
    expect(findInputProblem({ a: 'ok', b: [1, { c: 'x\u0000y' }] })).toEqual({
      where: 'b[1].c',
      reason: 'text with U+0000',
    });
    expect(findInputProblem({ name: 'a\uD800' })?.reason).toBe('text with a lone surrogate');
    expect(findInputProblem({ name: 'a\uDC00b' })?.reason).toBe('text with a lone surrogate');
    expect(findInputProblem({ amount: Number.POSITIVE_INFINITY })).toEqual({
      where: 'amount',
      reason: 'a number out of range',
    });
    expect(findInputProblem({ 'k\u0000': 1 })).toEqual({ where: '"k\\u0000"', reason: 'a key with U+0000' });
    let deep: unknown = 1;
    for (let i = 0; i < MAX_INPUT_DEPTH + 1; i++) deep = [deep];
    expect(findInputProblem(deep)?.reason).toBe(`nested deeper than ${MAX_INPUT_DEPTH} levels`);
  });

  it('accepts what JSON, Postgres text and the canonical string hold', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) deep = { a: deep };
    for (const value of [
      deep,
      { emoji: '💸 \uD83D\uDCB8', nul: '\\u0000', n: -0, big: 1e308, t: true, z: null },
      'plain',
      undefined,
    ]) {
      expect(findInputProblem(value)).toBeUndefined();
    }
  });

  it('cuts a long path short without leaving half a surrogate pair', () => {
    const key = `${'a'.repeat(59)}💸💸`;
    const text = describeInputProblem(findInputProblem({ [key]: 'x\u0000' })!);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(text.endsWith(': text with U+0000')).toBe(true);
  });
});

describe('refusals of the HTTP layer', () => {
  const logger = createLogger({ service: 'http-test', level: 'silent' });

  it('refuses parameters, queries and bodies nothing downstream can hold with 400, before the handler', async () => {
    const app = createHttpServer(logger);
    let handled = 0;
    app.post('/things/:id', async () => {
      handled++;
      return { ok: true };
    });
    try {
      const cases = [
        { url: '/things/a%00b', payload: {} },
        { url: '/things/a?q=%00', payload: {} },
        { url: '/things/a', payload: '{"name":"a\\u0000"}' },
        { url: '/things/a', payload: '{"name":"\\ud800"}' },
        { url: '/things/a', payload: '{"n":1e400}' },
        { url: '/things/a', payload: `${'['.repeat(40)}${']'.repeat(40)}` },
      ];
      for (const { url, payload } of cases) {
        const reply = await app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(reply.statusCode, url).toBe(400);
        expect(reply.json()).toMatchObject({ error: 'bad_request' });
      }
      expect(handled).toBe(0);
      const fine = await app.inject({ method: 'POST', url: '/things/a?q=1', payload: { name: 'é💸' } });
      expect(fine.statusCode).toBe(200);
      expect(handled).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('checks a body kept as text the way the route will parse it', async () => {
    const app = createHttpServer(logger);
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post('/notices', async (request) => ({ length: String(request.body).length }));
    try {
      const refused = await app.inject({ method: 'POST', url: '/notices', payload: '{"id":"a\\u0000"}' });
      expect(refused.statusCode).toBe(400);
      const raw = await app.inject({ method: 'POST', url: '/notices', payload: 'not json \\u0000' });
      expect(raw.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers a malformed method token and a bad URL through refusalBody', async () => {
    const seen: string[] = [];
    const app = createHttpServer(logger, {
      refusalBody: (refusal) => {
        seen.push(refusal.kind);
        return { contentType: 'application/json', body: JSON.stringify({ refused: refusal.detail }) };
      },
    });
    app.get('/x/:id', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const raw = await rawRequest(boundPort(app), 'GE\u0001T /x/1 HTTP/1.1\r\nHost: a\r\n\r\n');
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe('{"refused":"malformed HTTP request"}');
      const badUrl = await app.inject({ method: 'GET', url: '/x/%E0%A4%A' });
      expect(badUrl.statusCode).toBe(400);
      expect(badUrl.json()).toEqual({ refused: 'malformed URL' });
      expect(seen).toEqual(['malformed_request', 'malformed_request']);
    } finally {
      await app.close();
    }
  });
});

describe('a server closing', () => {
  it('answers a request that arrives while it closes through refusalBody, with 503 and Connection: close', async () => {
    const logger = createLogger({ service: 'http-test', level: 'silent' });
    const app = createHttpServer(logger, {
      refusalBody: (refusal) => ({
        contentType: 'application/json',
        body: JSON.stringify({ refused: refusal.kind }),
      }),
    });
    app.get('/fast', async () => ({ ok: true }));
    let during = '';
    // Registered after the server's own preClose: the server already counts as closing, and still accepts
    // connections until the hooks are done.
    app.addHook('preClose', async () => {
      during = await rawRequest(boundPort(app), 'GET /fast HTTP/1.1\r\nHost: a\r\n\r\n');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    expect(
      await rawRequest(boundPort(app), 'GET /fast HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'),
    ).toMatch(/^HTTP\/1\.1 200 /);
    await app.close();
    expect(during).toMatch(/^HTTP\/1\.1 503 /);
    expect(during.toLowerCase()).toContain('connection: close');
    expect(during.endsWith('{"refused":"closing"}')).toBe(true);
  });
});

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}
