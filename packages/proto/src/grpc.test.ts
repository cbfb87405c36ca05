import { createLogger } from '@agentpay/logger';
import { createRegistry, currentTraceparent, inSpan, installTracing } from '@agentpay/telemetry';
import { AppError, isAppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamRouterClient } from './generated/index.js';
import { call, checkGrpcHealth, type GrpcServerHandle, startGrpcServer, unary } from './grpc.js';
import { loadProtos } from './load.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const protos = loadProtos();
let server: GrpcServerHandle;
const exporter = new InMemorySpanExporter();
installTracing({ service: 'test', exporter });
const registry = createRegistry('test');
let seenTraceparent = '';
let client: UpstreamRouterClient;

const notImplemented = unary(logger, async () => {
  throw new Error('not used');
});

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        protos.agentpay.router.v1.UpstreamRouter.service,
        {
          ListPayMethods: unary(logger, async (req: { mch_no: string }) => {
            seenTraceparent = currentTraceparent();
            return { items: [{ code: 'm', name: req.mch_no }] };
          }),
          ListPayeeTypes: unary(logger, async () => {
            throw new AppError('PAYEE_TYPE_NOT_AVAILABLE', 'spei_transfer');
          }),
          ListPayeeCodes: unary(logger, async () => {
            throw new Error('secret upstream detail: channel X said no');
          }),
          CreateVirtualAccount: notImplemented,
          CloseVirtualAccount: notImplemented,
          QueryVirtualAccount: notImplemented,
          InquirePayee: notImplemented,
          SubmitPayout: notImplemented,
          QueryPayout: notImplemented,
        },
      ],
    ],
    name: 'router',
    registry,
  });
  client = new protos.agentpay.router.v1.UpstreamRouter(
    `127.0.0.1:${server.port}`,
    grpc.credentials.createInsecure(),
  );
});

afterAll(async () => {
  client?.close();
  await server?.stop(1_000);
});

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('gRPC helpers', () => {
  it('carry a handler result to the caller', async () => {
    const list = await call(client, client.ListPayMethods, { mch_no: 'M1' });
    expect(list.items).toEqual([{ code: 'm', name: 'M1' }]);
  });

  it('carry an AppError across the wire with its code and detail', async () => {
    const err = await rejection(call(client, client.ListPayeeTypes, { mch_no: 'M1' }));
    expect(err.codeName).toBe('PAYEE_TYPE_NOT_AVAILABLE');
    expect(err.detail).toBe('spei_transfer');
  });

  it('hide an unexpected error behind INTERNAL_ERROR without its message', async () => {
    const err = await rejection(call(client, client.ListPayeeCodes, { mch_no: 'M1', payee_type: 'x' }));
    expect(err.codeName).toBe('INTERNAL_ERROR');
    expect(err.message).not.toContain('channel X');
  });

  it('turn an unreachable server into SERVICE_UNAVAILABLE', async () => {
    const dead = new protos.agentpay.router.v1.UpstreamRouter(
      '127.0.0.1:1',
      grpc.credentials.createInsecure(),
    );
    const err = await rejection(call(dead, dead.ListPayMethods, { mch_no: 'M1' }, { timeoutMs: 1_000 }));
    dead.close();
    expect(err.codeName).toBe('SERVICE_UNAVAILABLE');
  });

  it('report health NOT_SERVING until the service says it is ready', async () => {
    expect(await checkGrpcHealth(`127.0.0.1:${server.port}`)).toBe(false);
    server.setServing(true);
    expect(await checkGrpcHealth(`127.0.0.1:${server.port}`)).toBe(true);
    expect(await checkGrpcHealth('127.0.0.1:1', 500)).toBe(false);
  });

  it('continue the caller trace on the server and count calls by method and outcome', async () => {
    let callerTrace = '';
    await inSpan('caller', { service: 'gateway' }, async (span) => {
      callerTrace = span.spanContext().traceId;
      await call(client, client.ListPayMethods, { mch_no: 'M2' });
    });
    expect(seenTraceparent).toContain(callerTrace);
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace);
    const serverSpan = spans.find(
      (s) => s.name === 'grpc /agentpay.router.v1.UpstreamRouter/ListPayMethods' && s.kind === 1,
    );
    const clientSpan = spans.find((s) => s.kind === 2);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.attributes['agentpay.service']).toBe('router');
    const text = await registry.metrics();
    expect(text).toContain(
      'grpc_server_requests_total{method="/agentpay.router.v1.UpstreamRouter/ListPayeeTypes",code="PAYEE_TYPE_NOT_AVAILABLE",service="test"} 1',
    );
  });
});
