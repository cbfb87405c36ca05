// The callee side of bench/hops.ts, in its own process as in the stack: a gRPC server and an HTTP server
// built with the services' own helpers. Answers {cpu} to a 'cpu' message from its parent.
import { createHttpServer } from '@agentpay/http';
import { createLogger } from '@agentpay/logger';
import { loadProtos, startGrpcServer, unary } from '@agentpay/proto';
import { installTracing } from '@agentpay/telemetry';
import { PAY_ORDER } from './hops-fixture.js';

installTracing({ service: 'hops-server' });
const logger = createLogger({ service: 'hops-server', level: 'warn' });
const protos = loadProtos();
const grpcServer = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  name: 'hops',
  services: [
    [
      protos.agentpay.payments.v1.PaymentService.service,
      { GetPayOrder: unary(logger, async () => PAY_ORDER) },
    ],
  ],
});
const http = createHttpServer(logger);
http.post('/channel/virtual-accounts', async (request) => ({
  ...(request.body as object),
  accountId: 'va_1',
}));
await http.listen({ host: '127.0.0.1', port: 0 });

process.send?.({ grpcPort: grpcServer.port, httpPort: (http.server.address() as { port: number }).port });
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'stop') void Promise.all([grpcServer.stop(1000), http.close()]).then(() => process.exit(0));
});
