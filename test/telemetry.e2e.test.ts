import { createServer, type Server } from 'node:http';
import { freePort } from '@agentpay/stack';
import { installTracing } from '@agentpay/telemetry';
import {
  createTestDatabase,
  createTestMerchant,
  natsUrl,
  type TestMerchant,
  uniqueName,
  waitFor,
} from '@agentpay/testing';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as gateway } from '../services/gateway/src/main.js';
import { main as notifier } from '../services/notifier/src/main.js';
import { main as payments } from '../services/payments/src/main.js';
import { main as transfers } from '../services/transfers/src/main.js';
import { main as router } from '../services/upstream-router/src/main.js';
import { main as sandbox } from '../services/upstream-sandbox/src/main.js';

// Issue 7: every service runs in this one process so a single in-memory exporter sees all their spans.
// One merchant request with a known traceparent must leave spans in the gateway, payments, the router
// and (through the outbox, JetStream and the callback) the notifier, all under that trace id. Afterwards
// each service's /metrics shows the counters operators rely on.

const exporter = new InMemorySpanExporter();
installTracing({ service: 'test', exporter });

const running: { stop(): Promise<void> }[] = [];
const drops: (() => Promise<void>)[] = [];
let merchant: TestMerchant;
let sink: Server;
let sinkUrl = '';
let urls: {
  gateway: string;
  admin: string;
  sandbox: string;
  notifier: string;
  payments: string;
  router: string;
};
let callbacks = 0;

async function database(label: string): Promise<string> {
  const db = await createTestDatabase(label);
  drops.push(db.drop);
  return db.url;
}

beforeAll(async () => {
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      callbacks += 1;
      res.end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/cb`;

  const [sandboxPort, routerPort, noticePort, paymentsPort, transfersPort, notifierPort] = await Promise.all(
    Array.from({ length: 6 }, () => freePort()),
  );
  const stream = uniqueName('TRACE');
  const common = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NATS_URL: await natsUrl(),
    EVENTS_STREAM: stream,
    EVENTS_SUBJECT_PREFIX: stream.toLowerCase(),
    PAYMENTS_ADDR: `127.0.0.1:${paymentsPort}`,
    TRANSFERS_ADDR: `127.0.0.1:${transfersPort}`,
    ROUTER_ADDR: `127.0.0.1:${routerPort}`,
    SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`,
    PUBLIC_NOTICE_URL: `http://127.0.0.1:${noticePort}`,
    NOTIFIER_URL: `http://127.0.0.1:${notifierPort}`,
    PLATFORM_PRIVATE_KEY_FILE: `/tmp/${stream}/platform.pem`,
    NOTIFY_ALLOW_PRIVATE: 'true',
    METRICS_PORT: '0',
  };
  running.push(
    await sandbox({
      ...common,
      DATABASE_URL: await database('tr_sandbox'),
      SANDBOX_PORT: String(sandboxPort),
    }),
  );
  const routerService = await router({
    ...common,
    DATABASE_URL: await database('tr_router'),
    GRPC_PORT: String(routerPort),
    NOTICE_PORT: String(noticePort),
  });
  running.push(routerService);
  const paymentsService = await payments({
    ...common,
    DATABASE_URL: await database('tr_payments'),
    GRPC_PORT: String(paymentsPort),
  });
  running.push(paymentsService);
  running.push(
    await transfers({
      ...common,
      DATABASE_URL: await database('tr_transfers'),
      GRPC_PORT: String(transfersPort),
    }),
  );
  running.push(
    await notifier({
      ...common,
      DATABASE_URL: await database('tr_notifier'),
      NOTIFIER_PORT: String(notifierPort),
    }),
  );
  const gw = await gateway({
    ...common,
    DATABASE_URL: await database('tr_gateway'),
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
  });
  running.push(gw);
  urls = {
    gateway: `http://127.0.0.1:${gw.merchantPort}`,
    admin: `http://127.0.0.1:${gw.adminPort}`,
    sandbox: `http://127.0.0.1:${sandboxPort}`,
    notifier: `http://127.0.0.1:${notifierPort}`,
    payments: `http://127.0.0.1:${paymentsService.metricsPort}`,
    // GET /metrics: the router serves it on its own port, not on the notice port.
    router: `http://127.0.0.1:${routerService.metricsPort}`,
  };
  // No ledger runs here and nothing is paid out: the merchant needs no funds.
  merchant = await createTestMerchant({ adminUrl: urls.admin, gatewayUrl: urls.gateway, fund: false });
});

afterAll(async () => {
  for (const service of running.reverse()) await service.stop();
  await new Promise((resolve) => sink?.close(resolve));
  for (const drop of drops) await drop();
});

function post(path: string, body: Record<string, unknown>, traceparent: string) {
  return fetch(`${urls.gateway}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ code: number; traceId: string; data: Record<string, string> }>);
}

describe('one trace across services', () => {
  it('finds the spans of a merchant request in the gateway, payments, router and, via JetStream, the notifier', async () => {
    const created = await post(
      '/gateway/pay',
      merchant.signed({
        bizOrderNo: `TR-${Date.now()}`,
        title: 'Traced',
        method: 'mex_virtual_account',
        amount: 5,
        notifyUrl: sinkUrl,
      }),
      `00-${'a'.repeat(31)}1-${'b'.repeat(16)}-01`,
    );
    expect(created.code).toBe(0);

    const traceId = 'c0ffee00c0ffee00c0ffee00c0ffee01';
    const closed = await post(
      '/gateway/close',
      merchant.signed({ orderNo: created.data['orderNo'] }),
      `00-${traceId}-${'d'.repeat(16)}-01`,
    );
    expect(closed).toMatchObject({ code: 0, traceId });

    const spans = await waitFor(
      () => {
        const found = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
        return found.some((s) => s.name === 'callback POST') ? found : undefined;
      },
      { timeoutMs: 20_000, message: 'the callback span of the trace never finished' },
    );
    const services = new Set(spans.map((s) => String(s.attributes['agentpay.service'])));
    expect([...services]).toEqual(
      expect.arrayContaining(['gateway', 'payments', 'upstream-router', 'notifier']),
    );
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'POST /gateway/close',
        'grpc /agentpay.payments.v1.PaymentService/ClosePayOrder',
        'grpc /agentpay.router.v1.UpstreamRouter/CloseVirtualAccount',
        expect.stringMatching(/^consume .*\.pay\.status_changed$/),
        'callback POST',
      ]),
    );
    // The first request's spans belong to its own trace, not this one.
    expect(spans.some((s) => s.name === 'POST /gateway/pay')).toBe(false);
  });
});

describe('metrics after the run', () => {
  it('shows request, gRPC, outbox and callback counters on each service', async () => {
    await waitFor(() => callbacks > 0, { timeoutMs: 10_000, message: 'no callback delivered' });
    const [gatewayText, paymentsText, notifierText] = await Promise.all(
      [`${urls.admin}/metrics`, `${urls.payments}/metrics`, `${urls.notifier}/metrics`].map((u) =>
        fetch(u).then((r) => r.text()),
      ),
    );
    expect(gatewayText).toMatch(/http_server_requests_total\{[^}]*route="\/gateway\/close"[^}]*code="0"/);
    expect(paymentsText).toMatch(
      /grpc_server_requests_total\{[^}]*method="\/agentpay\.payments\.v1\.PaymentService\/CreatePayOrder"[^}]*code="OK"/,
    );
    expect(paymentsText).toMatch(/outbox_published_total\{[^}]*\} [1-9]/);
    expect(paymentsText).toContain('outbox_lag_seconds_bucket');
    expect(notifierText).toMatch(/callback_attempts_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/);
    expect(notifierText).toContain('callback_queue_depth');
    const routerText = await fetch(`${urls.router}/metrics`).then((r) => r.text());
    expect(routerText).toMatch(
      /route_breaker_state\{[^}]*route="sandbox-default"[^}]*state="closed"[^}]*\} 1/,
    );
    expect(routerText).toMatch(
      /grpc_server_requests_total\{[^}]*method="\/agentpay\.router\.v1\.UpstreamRouter\/CreateVirtualAccount"/,
    );
  });
});
