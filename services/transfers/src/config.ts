import { baseEnv, DEFAULT_NATS_URL, defaultDatabaseUrl, eventsEnv, millis, port, z } from '@agentpay/config';

/** The transfers service's environment. */
export const transfersEnv = z
  .object({
    ...baseEnv,
    /** Interface the gRPC server binds to; default 0.0.0.0. */
    HOST: z.string().default('0.0.0.0'),
    /** gRPC port; default 50052. */
    GRPC_PORT: port(50052),
    /** HTTP port serving GET /metrics (Prometheus) and /healthz; default 9102. */
    METRICS_PORT: port(9102),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** The service's own database; created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_transfers')),
    /** NATS with JetStream, for the outbox relay; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** gRPC address of the upstream router; default 127.0.0.1:50053. */
    ROUTER_ADDR: z.string().default('127.0.0.1:50053'),
    /**
     * Longest wait for the router's answer, ms; default 15000. Also bounded by the caller's deadline, so
     * keep it under the gateway's GRPC_TIMEOUT_MS (20000) and above the router's UPSTREAM_TIMEOUT_MS.
     */
    ROUTER_TIMEOUT_MS: millis(15_000),
    /**
     * How often the sweep runs, ms; default 30000 (0 turns it off). It settles submissions abandoned by
     * a crash and asks upstream about transfers long in progress.
     */
    SWEEP_INTERVAL_MS: millis(30_000),
    /** Age after which a transfer still `submitting` counts as abandoned, ms; default 60000. */
    SUBMISSION_STALE_MS: millis(60_000),
    /** A transfer in progress and unchanged this long is asked about upstream, ms; default 300000. */
    RECONCILE_AFTER_MS: millis(300_000),
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

export type TransfersConfig = z.output<typeof transfersEnv>;
