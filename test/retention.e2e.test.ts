import { createServer, type Server } from 'node:http';
import { buildClabe } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// The retention jobs as the services run them (docs/deploy.md "Retention"): with retentions of about a
// second and a 200 ms interval, what an order and a transfer leave behind in the outboxes, the status
// history, the router's notices, the callback attempts, the nonces and rate windows goes, and the orders,
// transfers and deliveries stay.

const SECOND_IN_DAYS = String(1 / 86_400);
const FAST = { RETENTION_INTERVAL_MS: '200', RETENTION_BATCH: '2' };

let stack: Stack;
let merchant: TestMerchant;
let sink: Server;
let sinkUrl = '';

beforeAll(async () => {
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('SUCCESS'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/cb`;
  stack = await startTestStack({
    serviceEnv: {
      gateway: { ...FAST, NONCE_TTL_S: '1', RATE_WINDOW_RETENTION_S: '1' },
      payments: {
        ...FAST,
        OUTBOX_RETENTION_DAYS: SECOND_IN_DAYS,
        STATUS_HISTORY_RETENTION_DAYS: SECOND_IN_DAYS,
      },
      transfers: { ...FAST, OUTBOX_RETENTION_DAYS: SECOND_IN_DAYS },
      'upstream-router': {
        ...FAST,
        OUTBOX_RETENTION_DAYS: SECOND_IN_DAYS,
        NOTICE_RETENTION_DAYS: SECOND_IN_DAYS,
      },
      notifier: { ...FAST, CALLBACK_ATTEMPT_RETENTION_DAYS: SECOND_IN_DAYS },
    },
  });
  merchant = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => sink?.close(resolve));
});

/** Row counts of tables in one service's database (`table` may carry a where clause). */
async function counts(
  service: Parameters<Stack['databaseUrl']>[0],
  tables: string[],
): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: stack.databaseUrl(service) });
  await client.connect();
  try {
    const out: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      out[table] = rows[0]!.n;
    }
    return out;
  } finally {
    await client.end();
  }
}

describe('retention in the running services', () => {
  it('deletes what is past retention once finished or published, and keeps orders, transfers and deliveries', async () => {
    const pay = await merchant.request('/gateway/pay', {
      bizOrderNo: `RET-${Date.now()}`,
      title: 'Retention order',
      method: 'mex_virtual_account',
      amount: 120.5,
      notifyUrl: sinkUrl,
    });
    expect(pay.envelope.code).toBe(0);
    const { payBody } = pay.envelope.data as { payBody: string };
    const deposit = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe: (JSON.parse(payBody) as { clabe: string }).clabe, amount: 120.5 }),
    });
    expect(deposit.ok).toBe(true);
    const transfer = await merchant.request('/gateway/transfer', {
      bizTransferNo: `RET-T-${Date.now()}`,
      amount: 10,
      payeeType: 'spei_transfer',
      payeeAccount: buildClabe('012', '180', '00000012345'),
      payeeName: 'Ana Lopez',
      notifyUrl: sinkUrl,
    });
    expect(transfer.envelope.code).toBe(0);

    // Both callbacks delivered: every row the retention may delete has been written by now.
    const delivered = "deliveries where status = 'succeeded'";
    await waitFor(async () => ((await counts('notifier', [delivered]))[delivered]! >= 2 ? true : undefined), {
      timeoutMs: 30_000,
      message: 'both callbacks delivered',
    });

    const gone = {
      payments: { outbox: 0, pay_order_status_history: 0, pay_orders: 1 },
      transfers: { outbox: 0, transfers: 1 },
      'upstream-router': { outbox: 0, upstream_notices: 0 },
      notifier: { delivery_attempts: 0, deliveries: 2 },
      gateway: { nonces: 0, rate_windows: 0 },
    } as const;
    for (const [service, expected] of Object.entries(gone) as [keyof typeof gone, Record<string, number>][]) {
      let last: Record<string, number> = {};
      await waitFor(
        async () => {
          last = await counts(service, Object.keys(expected));
          return JSON.stringify(last) === JSON.stringify(expected) ? true : undefined;
        },
        { timeoutMs: 20_000, message: `${service}'s retention to leave ${JSON.stringify(expected)}` },
      ).catch(() => undefined);
      expect(last).toEqual(expected);
    }

    // Operators see it as a counter per table.
    const metrics = async (url: string) => (await fetch(`${url}/metrics`)).text();
    expect(await metrics(stack.urls.notifier)).toMatch(
      /retention_deleted_rows_total\{[^}]*table="delivery_attempts"[^}]*\} [1-9]/,
    );
    expect(await metrics(stack.urls.admin)).toMatch(
      /retention_deleted_rows_total\{[^}]*table="nonces"[^}]*\} [1-9]/,
    );
  });
});
