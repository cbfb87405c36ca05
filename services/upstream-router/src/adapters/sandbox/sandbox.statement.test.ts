import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteContext, type StatementLine, UpstreamUnavailableError } from '../channel-adapter.js';
import { createSandboxAdapter } from './sandbox.adapter.js';

// The sandbox adapter's reading of a daily statement, against a local HTTP server that answers the way a
// channel might: whole, in small chunks that split lines, cut, malformed, stalled. Above all, a statement
// that is not whole must throw, never end as if it were the day.

const DAY = '2026-11-23';

function line(n: number, extra: Record<string, unknown> = {}) {
  return {
    reference: `dep_${String(n).padStart(4, '0')}`,
    claveRastreo: `SBXD20261123${String(n).padStart(16, '0')}`,
    kind: 'deposit',
    amount: 1000 + n,
    occurredAt: `2026-11-23T18:00:${String(n % 60).padStart(2, '0')}.000Z`,
    account: '646180000000000012',
    platformRef: `P${n}`,
    upstreamRef: `va_${n}`,
    senderAccount: '012180000123456782',
    senderName: 'Ana',
    applied: true,
    ...extra,
  };
}

const ndjson = (values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');
const end = (lines: number, day = DAY) => ({ end: true, day, lines });
const WHOLE = [line(1), line(2), line(3), end(3)];

let server: Server;
let baseUrl: string;
const seen: { url: string; apiKey: string | undefined }[] = [];

/** Answers by the path after /channel/statements/. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  [DAY]: (res) => res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(ndjson(WHOLE)),
  // Seven bytes at a time, so lines and even UTF-8 characters are split across chunks.
  '2026-11-01': (res) => {
    const bytes = Buffer.from(ndjson([line(1, { senderName: 'Peña Núñez' }), line(2), end(2, '2026-11-01')]));
    res.writeHead(200);
    let at = 0;
    const next = (): void => {
      if (at >= bytes.length) {
        res.end();
        return;
      }
      res.write(bytes.subarray(at, at + 7));
      at += 7;
      setImmediate(next);
    };
    next();
  },
  '2026-11-02': (res) => res.writeHead(200).end(ndjson([line(1), line(2)])),
  '2026-11-03': (res) => {
    res.writeHead(200);
    res.write(ndjson([line(1), line(2)]));
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '2026-11-04': (res) => res.writeHead(200).end(`${ndjson([line(1)])}{"reference":\n${ndjson([end(1)])}`),
  '2026-11-05': (res) =>
    res.writeHead(200).end(ndjson([line(1, { claveRastreo: 'X'.repeat(31) }), end(1, '2026-11-05')])),
  '2026-11-06': (res) => res.writeHead(200).end(ndjson([line(1), end(2, '2026-11-06')])),
  '2026-11-07': (res) => res.writeHead(200).end(ndjson([line(1), end(1, '2026-11-07'), line(2)])),
  '2026-11-08': (res) => res.writeHead(503).end('maintenance'),
  '2026-11-09': (res) => res.writeHead(401).end('{}'),
  '2026-11-10': (res) => {
    // Starts, then stalls for longer than the route's timeout.
    res.writeHead(200);
    res.write(ndjson([line(1)]));
  },
  '2026-11-11': (res) => res.writeHead(200).end(ndjson([line(1, { amount: 10.5 }), end(1, '2026-11-11')])),
  '2026-11-12': (res) => res.writeHead(200).end(ndjson([end(0, '2026-11-12')])),
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  seen.push({ url: req.url ?? '', apiKey: req.headers['x-api-key'] as string | undefined });
  const day = (req.url ?? '').replace('/channel/statements/', '');
  const answer = ANSWERS[day];
  if (answer) answer(res);
  else res.writeHead(500).end('unknown test path');
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const adapter = createSandboxAdapter({ timeoutMs: 2_000 });
/** The sandbox names the platform's references itself: it never asks the router. */
const noLookups = {
  payoutsByClaveRastreo: () => Promise.reject(new Error('the sandbox adapter looked a payout up')),
  depositsByClaveRastreo: () => Promise.reject(new Error('the sandbox adapter looked a deposit up')),
};

function route(config: Record<string, unknown> = {}): RouteContext {
  return {
    id: 'r1',
    config: { baseUrl, noticeUrl: 'http://127.0.0.1/n', noticeSecretRef: 'SANDBOX_X', ...config },
    codeMap: {},
    credentials: { apiKey: 'key-1', noticeSecret: '' },
  };
}

/** Reads the statement of `day`: the lines that arrived, and how it ended. */
async function read(day: string, r = route()) {
  const lines: StatementLine[] = [];
  try {
    for await (const l of adapter.fetchStatement(r, day, noLookups)) lines.push(l);
    return { lines, error: undefined };
  } catch (err) {
    return { lines, error: err as Error };
  }
}

describe('sandbox fetchStatement', () => {
  it('yields every line of a whole statement, typed, with the route key', async () => {
    seen.length = 0;
    const { lines, error } = await read(DAY);
    expect(error).toBeUndefined();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ ...line(1), occurredAt: new Date('2026-11-23T18:00:01.000Z') });
    expect(seen).toEqual([{ url: `/channel/statements/${DAY}`, apiKey: 'key-1' }]);
  });

  it('reassembles lines and UTF-8 split across many small chunks', async () => {
    const { lines, error } = await read('2026-11-01');
    expect(error).toBeUndefined();
    expect(lines.map((l) => l.senderName)).toEqual(['Peña Núñez', 'Ana']);
  });

  it('an empty day is whole with no lines', async () => {
    expect(await read('2026-11-12')).toEqual({ lines: [], error: undefined });
  });

  it.each([
    ['ends without its end line', '2026-11-02', 2, /without its end line/],
    ['is cut by the connection', '2026-11-03', 2, /answer cut/],
    ['has a line that is not JSON', '2026-11-04', 1, /line 2 is not JSON/],
    ['has a claveRastreo longer than 30 characters', '2026-11-05', 0, /line 1 is malformed/],
    ['has an amount that is not whole centavos', '2026-11-11', 0, /line 1 is malformed/],
    ['counts other lines than it sent', '2026-11-06', 1, /end line says 2 lines/],
    ['has lines after its end line', '2026-11-07', 1, /after the end line/],
    ['is refused with a 5xx', '2026-11-08', 0, /HTTP 503/],
    ['is refused for the credentials', '2026-11-09', 0, /refused the credentials/],
  ])(
    'a statement that %s throws unavailable after the lines that came',
    async (_what, day, count, message) => {
      const { lines, error } = await read(day);
      expect(lines).toHaveLength(count);
      expect(error).toBeInstanceOf(UpstreamUnavailableError);
      expect(error?.message).toMatch(message);
    },
  );

  it('a statement that stalls longer than the route timeout throws unavailable', async () => {
    const { lines, error } = await read('2026-11-10', route({ timeoutMs: 200 }));
    expect(lines).toHaveLength(1);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
  });

  it('a channel that is down throws unavailable before any line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { lines, error } = await read(DAY, route({ baseUrl: `http://127.0.0.1:${port}` }));
    expect(lines).toEqual([]);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error?.message).toMatch(/ECONNREFUSED/);
  });

  it('stops reading when the signal aborts', async () => {
    const abort = new AbortController();
    const lines: StatementLine[] = [];
    const reading = (async () => {
      for await (const l of adapter.fetchStatement(route(), '2026-11-10', noLookups, abort.signal)) {
        lines.push(l);
        abort.abort();
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(lines).toHaveLength(1);
  });
});
