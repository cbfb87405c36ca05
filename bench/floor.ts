// The floor for create-pay: the least any implementation must do per request, in one process. Parse,
// verify the merchant's signature, write the order and its outbox row in one transaction, sign the
// reply. The platform's own path must be judged against this, measured in the same run.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import {
  createEnvelopeSigner,
  parseAmount,
  parsePrivateKey,
  parsePublicKey,
  verifyObject,
} from '@agentpay/wire';
import pg from 'pg';

const port = Number(process.env['PORT'] ?? 0);
const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const merchantKey = parsePublicKey(readFileSync(process.env['MERCHANT_PUBLIC_KEY_FILE']!, 'utf8'));
const signer = createEnvelopeSigner({
  privateKey: parsePrivateKey(readFileSync(process.env['PLATFORM_KEY_FILE']!, 'utf8')),
  timeZone: 'America/Mexico_City',
});

await pool.query(`
  create table if not exists floor_orders (
    order_no text primary key, mch_no text not null, biz_order_no text not null, amount bigint not null,
    status text not null, created_at timestamptz not null default now(), unique (mch_no, biz_order_no));
  create table if not exists floor_outbox (
    id uuid primary key, subject text not null, payload jsonb not null, created_at timestamptz not null default now());`);

let sequence = 0;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const reply = (envelope: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelope));
    };
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      if (!verifyObject(body, String(body['sign']), merchantKey))
        return reply(signer.error('SIGNATURE_FAILED', traceId));
      const amount = parseAmount(body['amount']);
      if (!amount.ok) return reply(signer.error('INVALID_PARAMETER', traceId, 'amount'));
      const orderNo = `F${Date.now()}${String(++sequence).padStart(8, '0')}`;
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(
          'insert into floor_orders (order_no, mch_no, biz_order_no, amount, status) values ($1, $2, $3, $4, $5)',
          [orderNo, body['mchNo'], body['bizOrderNo'], amount.centavos, 'wait'],
        );
        await client.query('insert into floor_outbox (id, subject, payload) values ($1, $2, $3)', [
          randomUUID(),
          'floor.created',
          JSON.stringify({ orderNo }),
        ]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      } finally {
        client.release();
      }
      reply(signer.success({ bizOrderNo: body['bizOrderNo'], orderNo, status: 'wait' }, traceId));
    } catch {
      reply(signer.error('INTERNAL_ERROR', traceId));
    }
  });
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
