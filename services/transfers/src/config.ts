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

/** Where TRANSFERS_CRASH_AT can stop a create (see the variable). */
export const CRASH_POINTS = ['after_insert', 'after_freeze', 'after_router'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** The transfers service's environment. */
export const transfersEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the gRPC server and the metrics server listen on; default 127.0.0.1, this machine only. The
     * images and the Kubernetes manifests set 0.0.0.0, so that other hosts reach them.
     */
    HOST: host(),
    /** gRPC port; default 50052. */
    GRPC_PORT: port(50052),
    /** HTTP port serving GET /metrics (Prometheus) and /healthz; default 9102. */
    METRICS_PORT: port(9102),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** The service's own database; created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_transfers')),
    /** NATS with JetStream, for the outbox relay and the notice consumer; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /**
     * Durable JetStream consumer applying the router's notices (`<prefix>.notice.payout`), shared by every
     * replica; default transfers-notices.
     */
    NOTICE_CONSUMER: z.string().default('transfers-notices'),
    /** Notices applied at once by one replica; default 8. */
    NOTICE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    /** Pause before a notice that could not be applied is redelivered, ms; default 5000. */
    NOTICE_RETRY_DELAY_MS: millis(5_000),
    /**
     * gRPC target of the upstream router; default 127.0.0.1:50053. Calls are spread round-robin over every address
     * it resolves to: `dns:///name:port` of a headless Service, or `ipv4:host:port,host:port` (docs/deploy.md).
     */
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
    /** Batch items sent to the router at once by the batch sender; default 16. */
    BATCH_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    /** How often the batch sender looks for queued items when nobody told it of new ones, ms; default 1000. */
    BATCH_SEND_INTERVAL_MS: millis(1_000),
    /**
     * gRPC target of the ledger, which freezes each transfer's amount + fee inside its create; default
     * 127.0.0.1:50054 (same forms as ROUTER_ADDR).
     */
    LEDGER_ADDR: z.string().default('127.0.0.1:50054'),
    /** Longest wait for the ledger's answer to a Freeze or VoidFreeze, ms; default 5000. */
    LEDGER_TIMEOUT_MS: millis(5_000),
    /**
     * gRPC target of compliance, which screens every payee inside its transfer's create (docs/compliance.md);
     * default 127.0.0.1:50055 (same forms as ROUTER_ADDR).
     */
    COMPLIANCE_ADDR: z.string().default('127.0.0.1:50055'),
    /** Longest wait for screening's answer, ms; default 2000. Unanswered, the create answers 50003. */
    COMPLIANCE_TIMEOUT_MS: millis(2_000),
    /**
     * Minutes a newly registered payee cools off before transfers may go to it (unless a second merchant
     * person approves it sooner); default 60. CONTRACT section 19.
     */
    PAYEE_COOLING_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
    /**
     * Test only, refused in production: the process exits at this point of a create, so a test can prove
     * that recovery leaves the freeze and the transfer agreeing. `after_insert` (the submitting row
     * committed, before Freeze), `after_freeze` (before the router call), `after_router` (the router
     * answered, before the transfer is committed). Unset or empty: never.
     */
    TRANSFERS_CRASH_AT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(CRASH_POINTS).optional()),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Days a published outbox row is kept (an unpublished one always is); default 7; 0 keeps them forever. */
    OUTBOX_RETENTION_DAYS: z.coerce.number().min(0).default(7),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    if (production && env.TRANSFERS_CRASH_AT)
      ctx.addIssue({ code: 'custom', message: 'a test-only fault hook', path: ['TRANSFERS_CRASH_AT'] });
    return { ...env, production };
  });

export type TransfersConfig = z.output<typeof transfersEnv>;
