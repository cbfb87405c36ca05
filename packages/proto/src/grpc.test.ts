import { createLogger } from '@agentpay/logger';
import { AppError, isAppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamRouterClient } from './generated/index.js';
import { call, checkGrpcHealth, type GrpcServerHandle, startGrpcServer, unary } from './grpc.js';
import { loadProtos } from './load.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const protos = loadProtos();
let server: GrpcServerHandle;
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
          ListPayMethods: unary(logger, async (req: { mch_no: string }) => ({
            items: [{ code: 'm', name: req.mch_no }],
          })),
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
});
