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

/** The upstream router's environment. */
export const routerEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the gRPC server and the notice server listen on; default 127.0.0.1, this machine only. The
     * images and the Kubernetes manifests set 0.0.0.0, so that other hosts reach them.
     */
    HOST: host(),
    /** gRPC port; default 50053. */
    GRPC_PORT: port(50053),
    /** HTTP port where upstream channels deliver their notices; default 8091. */
    NOTICE_PORT: port(8091),
    /**
     * HTTP port of GET /metrics (Prometheus) and /healthz; default 9104. Apart from the notice port, so the
     * port the internet's webhooks reach serves nothing else and Prometheus never needs to reach it.
     */
    METRICS_PORT: port(9104),
    /** The router's own database (routes, bindings, notices); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_router')),
    /** Base URL of the sandbox channel for the route seeded on a fresh stack; default http://127.0.0.1:8090. */
    SANDBOX_URL: z.string().default('http://127.0.0.1:8090'),
    /** URL the sandbox calls back for the seeded route; default http://127.0.0.1:8091. */
    PUBLIC_NOTICE_URL: z.string().default('http://127.0.0.1:8091'),
    /** NATS with JetStream, for the outbox relay publishing recorded notices; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /**
     * Days a CLABE the router assigned (STP) stays out of use after its order ended, so a late deposit meant
     * for the old order is never taken by a new one; default 180.
     */
    CLABE_QUARANTINE_DAYS: z.coerce.number().int().min(0).default(180),
    /**
     * Addresses or CIDRs of the proxies in front of the notice port, comma-separated; only a request from one of
     * them has its caller taken from X-Forwarded-For (webhook allow-lists). Default none: the socket's address.
     */
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** Timeout of one call to an upstream channel, ms; default 10000. */
    UPSTREAM_TIMEOUT_MS: millis(10_000),
    /**
     * gRPC target of compliance, which screens each STP deposit's payer before the router answers it
     * (docs/compliance.md); default 127.0.0.1:50055. Unanswered, the webhook answers 503 and STP asks again.
     */
    COMPLIANCE_ADDR: z.string().default('127.0.0.1:50055'),
    /** Longest wait for screening's answer to a deposit, ms; default 3000. */
    COMPLIANCE_TIMEOUT_MS: millis(3_000),
    /** Unavailable answers in a row (within ROUTE_BREAKER_WINDOW_MS) that open a route's circuit breaker; default 5. */
    ROUTE_BREAKER_FAILURES: z.coerce.number().int().min(1).default(5),
    /** Window in which those failures must fall, ms; default 60000. */
    ROUTE_BREAKER_WINDOW_MS: millis(60_000),
    /** How long an open breaker keeps its route out of selection before one probe call, ms; default 15000. */
    ROUTE_BREAKER_COOLDOWN_MS: millis(15_000),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Days a published outbox row is kept (an unpublished one always is); default 7; 0 keeps them forever. */
    OUTBOX_RETENTION_DAYS: z.coerce.number().min(0).default(7),
    /**
     * Days a recorded notice is kept; default 90; 0 keeps them forever. It is what makes a channel's repeat
     * a duplicate, so keep it longer than any channel redelivers. A notice whose event is not yet published
     * is kept whatever its age.
     */
    NOTICE_RETENTION_DAYS: z.coerce.number().min(0).default(90),
  })
  .transform((env) => ({ ...env, production: env.NODE_ENV === 'production' }));

export type RouterConfig = z.output<typeof routerEnv>;
