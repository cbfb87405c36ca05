// The callback sink: a merchant endpoint per merchant, answering by the merchant's policy.
import type { KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { verifyObject } from '@agentpay/wire';
import type { Receipt } from './records.js';

export type SinkPolicy = 'success' | 'fail-first' | 'error-first';

export interface Sink {
  url: string;
  receipts: Receipt[];
  setPlatformKey(key: KeyObject): void;
  policy: Map<string, SinkPolicy>;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const receipts: Receipt[] = [];
  const policy = new Map<string, SinkPolicy>();
  const seen = new Set<string>();
  let platformKey: KeyObject | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mchNo = decodeURIComponent((req.url ?? '').split('/')[2] ?? '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      } catch {
        // recorded with empty fields below; the check counts it as unreadable
      }
      const data = (body['data'] ?? {}) as Record<string, unknown>;
      const transferNo = typeof data['transferNo'] === 'string' ? data['transferNo'] : undefined;
      const orderNo = typeof data['orderNo'] === 'string' ? data['orderNo'] : undefined;
      const kind = transferNo ? 'transfer' : orderNo ? 'pay' : 'unknown';
      const status = typeof data['status'] === 'string' ? data['status'] : '';
      const key = `${transferNo ?? orderNo ?? ''}|${status}`;
      const first = !seen.has(key);
      seen.add(key);
      const mode = policy.get(mchNo) ?? 'success';
      const answer: Receipt['answer'] =
        first && mode === 'fail-first' ? 'FAIL' : first && mode === 'error-first' ? 'HTTP 500' : 'SUCCESS';
      receipts.push({
        at: Date.now(),
        mchNo,
        kind,
        orderNo: transferNo ?? orderNo ?? '',
        status,
        deliveryId: String(req.headers['x-agentpay-delivery-id'] ?? ''),
        attempt: Number(req.headers['x-agentpay-attempt'] ?? 0),
        answer,
        signed:
          platformKey !== undefined &&
          typeof body['sign'] === 'string' &&
          verifyObject(body, body['sign'], platformKey),
        bodyMchNo: typeof body['mchNo'] === 'string' ? body['mchNo'] : '',
      });
      if (answer === 'HTTP 500') res.writeHead(500).end('busy');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    policy,
    setPlatformKey: (key) => {
      platformKey = key;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
