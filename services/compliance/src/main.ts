import { isEntryPoint, runService } from '@agentpay/config';
import { boundPort, startOpsServer } from '@agentpay/http';
import { startEventConsumer, statusChangedFilter } from '@agentpay/messaging';
import { loadProtos, startGrpcServer } from '@agentpay/proto';
import { bootstrapService } from '@agentpay/service';
import { createCases } from './cases/cases.service.js';
import { createComplianceHandlers } from './compliance.grpc.js';
import { complianceEnv } from './config.js';
import { migrations } from './db/migrations/index.js';
import type { Database } from './db/schema.js';
import { createLists } from './lists/lists.service.js';
import { complianceRetentionRules } from './retention/retention.js';
import { createRules, rulesHandler } from './rules/rules.js';
import { createScreening } from './screening/screening.js';

export interface Compliance {
  grpcPort: number;
  /** Port of GET /metrics and /healthz. */
  metricsPort: number;
  stop(): Promise<void>;
}

/** Composition root of the compliance service (docs/compliance.md). */
export async function main(env: NodeJS.ProcessEnv): Promise<Compliance> {
  const svc = await bootstrapService({ name: 'compliance', schema: complianceEnv, env });
  const { config, logger, registry } = svc;
  return svc.run(async () => {
    const db = await svc.database<Database>(migrations);
    const nc = await svc.events();
    const rules = createRules({ db });
    const cases = createCases({ db });

    // The monitoring rules read the status events payments and transfers publish (docs/compliance.md).
    svc.own(
      'rules consumer',
      startEventConsumer({
        nc,
        logger,
        service: 'compliance',
        stream: config.EVENTS_STREAM,
        durable: config.RULES_CONSUMER,
        filterSubject: statusChangedFilter(config.EVENTS_SUBJECT_PREFIX),
        concurrency: config.RULES_CONCURRENCY,
        batchSize: config.RULES_BATCH,
        ackWaitMs: config.RULES_ACK_WAIT_MS,
        handle: rulesHandler({ db, rules, logger }),
        registry,
      }),
      (c) => c.stop(),
    );

    svc.retention(db, complianceRetentionRules({ observedDays: config.OBSERVED_RETENTION_DAYS }));

    const protos = loadProtos();
    const grpcServer = svc.own(
      'gRPC server',
      await startGrpcServer({
        host: config.HOST,
        port: config.GRPC_PORT,
        name: 'compliance',
        registry,
        maxReceiveMessageBytes: config.GRPC_MAX_MESSAGE_BYTES,
        services: [
          [
            protos.agentpay.compliance.v1.ComplianceService.service,
            createComplianceHandlers({
              logger,
              screen: createScreening({ db }),
              lists: createLists({ db }),
              cases,
              rules,
            }),
          ],
        ],
      }),
      (g) => g.stop(),
    );
    grpcServer.setServing(true);
    const ops = svc.own(
      'ops server',
      await startOpsServer({ logger, host: config.HOST, port: config.METRICS_PORT, metrics: registry }),
      (o) => o.close(),
    );
    logger.info({ grpcPort: grpcServer.port }, 'compliance listening');
    return { grpcPort: grpcServer.port, metricsPort: boundPort(ops), stop: svc.stop };
  });
}

if (isEntryPoint(import.meta.url)) runService('compliance', main);
