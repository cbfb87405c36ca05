import { createLogger } from '@agentpay/logger';
import {
  type GrpcServerHandle,
  loadProtos,
  type ScreenRequest__Output,
  type ScreenResponse,
  startGrpcServer,
  unary,
} from '@agentpay/proto';

/**
 * A stand-in compliance for the router's tests: Screen answers clear unless a test sets `onScreen`; every
 * request is kept in `screens`.
 */
export async function startComplianceStub() {
  const logger = createLogger({ service: 'compliance-stub', level: 'silent' });
  const stub = {
    screens: [] as ScreenRequest__Output[],
    onScreen: async (_req: ScreenRequest__Output): Promise<ScreenResponse> => ({
      outcome: 'clear',
      hold: false,
    }),
    server: undefined as GrpcServerHandle | undefined,
    get address() {
      return `127.0.0.1:${stub.server!.port}`;
    },
    stop: () => stub.server?.stop(0),
  };
  stub.server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      [
        loadProtos().agentpay.compliance.v1.ComplianceService.service,
        {
          Screen: unary(logger, async (req: ScreenRequest__Output) => {
            stub.screens.push(req);
            return stub.onScreen(req);
          }),
        },
      ],
    ],
  });
  stub.server.setServing(true);
  return stub;
}
