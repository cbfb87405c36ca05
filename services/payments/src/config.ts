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

/** The payments service's environment. */
export const paymentsEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the gRPC server and the metrics server listen on; default 127.0.0.1, this machine only. The
     * images and the Kubernetes manifests set 0.0.0.0, so that other hosts reach them.
     */
    HOST: host(),
    /** gRPC port; default 50051. */
    GRPC_PORT: port(50051),
    /** HTTP port serving GET /metrics (Prometheus) and /healthz; default 9101. */
    METRICS_PORT: port(9101),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** The service's own database; created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_payments')),
    /** NATS with JetStream, for the outbox relay and the notice consumer; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /**
     * Durable JetStream consumer applying the router's notices (`<prefix>.notice.payment`), shared by every
     * replica; default payments-notices.
     */
    NOTICE_CONSUMER: z.string().default('payments-notices'),
    /** Notices applied at once by one replica; default 8. */
    NOTICE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    /** Pause before a notice that could not be applied is redelivered, ms; default 5000. */
    NOTICE_RETRY_DELAY_MS: millis(5_000),
    /**
     * Durable JetStream consumer of the ledger's OrderSettled events (`<prefix>.ledger.order_settled`),
     * shared by every replica; default payments-settled.
     */
    SETTLED_CONSUMER: z.string().default('payments-settled'),
    /**
     * gRPC target of the upstream router; default 127.0.0.1:50053. Calls are spread round-robin over every address
     * it resolves to: `dns:///name:port` of a headless Service, or `ipv4:host:port,host:port` (docs/deploy.md).
     */
    ROUTER_ADDR: z.string().default('127.0.0.1:50053'),
    /** Deadline of a call to the upstream router, ms; default 15000. */
    ROUTER_TIMEOUT_MS: millis(15_000),
    /**
     * How long a create request owns an order whose virtual account it is opening, ms; default 30000.
     * Identical concurrent requests wait for the owner this long; past it (the owner crashed) one of
     * them takes the order over. Must exceed ROUTER_TIMEOUT_MS so a live owner never loses it.
     */
    CREATE_LEASE_MS: millis(30_000),
    /** Pause between two runs of the expiry sweep, ms; default 30000 (docs/merchant-api.md "Statuses"). 0 turns it off. */
    EXPIRY_SWEEP_INTERVAL_MS: millis(30_000),
    /** Expired orders one sweep round claims at a time; default 50. */
    EXPIRY_SWEEP_BATCH: z.coerce.number().int().min(1).max(1_000).default(50),
    /**
     * How long a replica owns the expired orders it claimed, ms; default 120000. Another replica picks
     * them up only after this, so it must cover the upstream calls of one batch.
     */
    EXPIRY_SWEEP_LEASE_MS: millis(120_000),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Days a published outbox row is kept (an unpublished one always is); default 7; 0 keeps them forever. */
    OUTBOX_RETENTION_DAYS: z.coerce.number().min(0).default(7),
    /**
     * Days a row of an order's status history is kept; default 1825 (five years, the horizon of Mexico's tax
     * records); 0 keeps it forever. The orders themselves are always kept.
     */
    STATUS_HISTORY_RETENTION_DAYS: z.coerce.number().min(0).default(1_825),
  })
  // Checked in the transform, not a refine: the migrate entry picks fields from the plain object schema.
  .transform((env, ctx) => {
    if (env.CREATE_LEASE_MS <= env.ROUTER_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', message: 'must exceed ROUTER_TIMEOUT_MS', path: ['CREATE_LEASE_MS'] });
    }
    return { ...env, production: env.NODE_ENV === 'production' };
  });

export type PaymentsConfig = z.output<typeof paymentsEnv>;
