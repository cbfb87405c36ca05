import {
  baseEnv,
  DEFAULT_NATS_URL,
  defaultDatabaseUrl,
  eventsEnv,
  host,
  millis,
  port,
  retentionEnv,
  z,
} from '@agentpay/config';

/** The compliance service's environment. */
export const complianceEnv = z
  .object({
    ...baseEnv,
    /** Interface the gRPC server and the metrics server listen on; default 127.0.0.1 (images set 0.0.0.0). */
    HOST: host(),
    /** gRPC port; default 50055. */
    GRPC_PORT: port(50055),
    /** HTTP port serving GET /metrics (Prometheus) and /healthz; default 9105. */
    METRICS_PORT: port(9105),
    /** OTLP/HTTP traces endpoint; unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** The service's own database (lists, cases, rules); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_compliance')),
    /** NATS with JetStream, for the monitoring rules' consumer; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** Durable JetStream consumer of the status events the monitoring rules read; default compliance-rules. */
    RULES_CONSUMER: z.string().default('compliance-rules'),
    /** Batches of status events handled at once; default 2. */
    RULES_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Most status events in one batch; default 50. */
    RULES_BATCH: z.coerce.number().int().min(1).max(1000).default(50),
    /** JetStream redelivers an event not acked within this, ms; default 30000. */
    RULES_ACK_WAIT_MS: millis(30_000),
    /**
     * Largest gRPC message, bytes: bounds an uploaded list version (the CSV travels in one UploadVersion);
     * default 67108864 (64 MiB, about 800,000 entries).
     */
    GRPC_MAX_MESSAGE_BYTES: z.coerce.number().int().min(4_194_304).default(67_108_864),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Days the operations the monitoring rules observed are kept (they look 7 days back); default 30; 0 keeps them. */
    OBSERVED_RETENTION_DAYS: z.coerce.number().min(0).default(30),
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

export type ComplianceConfig = z.output<typeof complianceEnv>;
