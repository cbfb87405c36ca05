import { connect, createServer, type Server, type Socket } from 'node:net';
import { createLogger } from '@agentpay/logger';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_OPTIONS, type GrpcServerHandle, startGrpcServer, unary } from './grpc.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (buffer: Buffer) => JSON.parse(buffer.toString()) as unknown,
};
// A one-method service whose answer names the replica that served it.
const WHO: grpc.ServiceDefinition = {
  Who: {
    path: '/test.Replica/Who',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
const Client = grpc.makeGenericClientConstructor(WHO, 'Replica');

const servers: GrpcServerHandle[] = [];
const clients: grpc.Client[] = [];

async function replica(name: string): Promise<GrpcServerHandle> {
  const handle = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [[WHO, { Who: unary(logger, async () => ({ name })) }]],
  });
  handle.setServing(true);
  servers.push(handle);
  return handle;
}

/** A TCP hop in front of a replica whose `crash()` does to its clients what a killed process does. */
async function crashable(port: number): Promise<{ port: number; crash(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect({ host: '127.0.0.1', port });
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    crash: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.resetAndDestroy();
        server.close(() => resolve());
      }),
  };
}

function who(client: grpc.Client): Promise<string> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      '/test.Replica/Who',
      json.serialize,
      json.deserialize,
      {},
      new grpc.Metadata(),
      { deadline: new Date(Date.now() + 5_000) },
      (err, value) => (err ? reject(err) : resolve((value as { name: string }).name)),
    );
  });
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(servers.splice(0).map((s) => s.stop(100)));
});

describe('client balancing over replicas (CLIENT_OPTIONS)', () => {
  it('spreads calls over every address of the target, not one per client', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const client = new Client(
      `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
    clients.push(client);
    // round_robin connects to each address; calls made once both are ready alternate between them.
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(Date.now() + 5_000, (err) => (err ? reject(err) : resolve())),
    );
    const seen = new Set<string>();
    for (let i = 0; i < 20 && seen.size < 2; i++) seen.add(await who(client));
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('drops a replica that goes away from the rotation: every later call succeeds on the others', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const front = await crashable(a.port);
    const client = new Client(
      `ipv4:127.0.0.1:${front.port},127.0.0.1:${b.port}`,
      grpc.credentials.createInsecure(),
      CLIENT_OPTIONS,
    );
    clients.push(client);
    const seen = new Set<string>();
    for (let i = 0; i < 20 && seen.size < 2; i++) seen.add(await who(client));
    expect(seen.size).toBe(2);

    // Its connections reset and its port refuses, as after a SIGKILL.
    await front.crash();
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await who(client));
    expect(new Set(answers)).toEqual(new Set(['b']));
  });
});
