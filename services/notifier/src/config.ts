import {
  baseEnv,
  DEFAULT_NATS_URL,
  defaultDatabaseUrl,
  eventsEnv,
  flag,
  host,
  millis,
  port,
  retentionEnv,
  z,
} from '@agentpay/config';
import { parseRetrySchedule } from './deliveries/retry-schedule.js';

const positive = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** The notifier's environment. */
export const notifierEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the HTTP server listens on; default 127.0.0.1, this machine only. The images and the
     * Kubernetes manifests set 0.0.0.0, so that other hosts reach it.
     */
    HOST: host(),
    /** HTTP port for /healthz and the callback admin API; default 8082. */
    NOTIFIER_PORT: port(8082),
    /** The notifier's own database (delivery schedule and attempts); created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_notifier')),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** NATS with JetStream; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** Durable JetStream consumer the replicas share; default `notifier`. */
    NOTIFIER_CONSUMER: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('notifier'),
    /**
     * How long JetStream waits for an event's ack before redelivering it, ms; default 30000. Also how long
     * events handed to a replica that crashed wait before another replica gets them.
     */
    NOTIFIER_ACK_WAIT_MS: positive(30_000),
    /** Batches of events recorded at once by one replica (each batch is one Postgres transaction); default 4. */
    NOTIFIER_CONSUME_CONCURRENCY: positive(4),
    /** Most events recorded in one transaction; default 100. */
    NOTIFIER_CONSUME_BATCH: positive(100),
    /** Platform private key (PEM), to sign callbacks. Takes precedence over the file. */
    PLATFORM_PRIVATE_KEY: z.string().optional(),
    /** File holding the platform private key; outside production it is generated there if missing. */
    PLATFORM_PRIVATE_KEY_FILE: z.string().default('.agentpay/platform-key.pem'),
    /** Timeout of one whole callback exchange (DNS, connect, request, reply), ms; default 15000. */
    NOTIFY_TIMEOUT_MS: millis(15_000),
    /**
     * Waits before each retry, comma-separated durations (`ms`, `s`, `m`, `h`, `d`); its length is the number
     * of retries, empty means none; a bad entry stops the start. The default is the contract's 16 (about 24 h).
     */
    NOTIFY_RETRY_SCHEDULE: z.string().default('15s,15s,30s,1m,3m,10m,20m,30m,30m,30m,1h,3h,3h,3h,6h,6h'),
    /**
     * Lifts the SSRF guard: callbacks may go to loopback and private addresses (development and tests; a
     * warning is logged when set in production); default false.
     */
    NOTIFY_ALLOW_PRIVATE: flag(false),
    /**
     * Callbacks in flight at once in one replica, over all endpoints; default 512. Well above the
     * per-endpoint limit, so that a few hanging endpoints (each holding its slots until the timeout) leave
     * most of a replica to the others.
     */
    NOTIFY_CONCURRENCY: positive(512),
    /**
     * Callbacks in flight at once to one endpoint (host:port), over all replicas; default 64. The ceiling
     * of the adaptive limit below. An endpoint's rate is at most this many per round trip (reply plus
     * settle): 64 at 50 ms is 1,280 a second, what a merchant's backlog needs to drain at 1,000 a second.
     */
    NOTIFY_ENDPOINT_CONCURRENCY: positive(64),
    /**
     * Adaptive limit an endpoint starts with in each replica, and returns to once forgotten; default 8. It
     * grows by one per round trip while the endpoint answers and is busy, up to NOTIFY_ENDPOINT_CONCURRENCY,
     * and halves on every attempt left unanswered (timeout, refused, reset), down to 1 (README "Adaptive
     * per-endpoint limit").
     */
    NOTIFY_ENDPOINT_INITIAL_LIMIT: positive(8),
    /** A claim's lease is the timeout plus this margin; after it, another replica may take over; default 30000. */
    NOTIFY_LEASE_MARGIN_MS: millis(30_000),
    /** Safety-net poll for due retries and expired leases when no NOTIFY arrives, ms; default 1000. */
    NOTIFY_POLL_MS: positive(1_000),
    /**
     * Bearer token of the callback admin API, which only the gateway calls (operators go through the gateway's
     * admin port, where people and roles are checked); the same value as the gateway's. Outside production
     * defaults to dev-notifier-admin-token.
     */
    NOTIFIER_ADMIN_TOKEN: z.string().min(1).optional(),
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /**
     * Days the attempts of a finished delivery (delivered, given up, superseded or skipped) are kept, by when
     * each started; default 30; 0 keeps them forever. A pending delivery's attempts are always kept, and
     * the deliveries themselves are.
     */
    CALLBACK_ATTEMPT_RETENTION_DAYS: z.coerce.number().min(0).default(30),
    /**
     * Days a finished delivery (delivered, given up, superseded or skipped) is kept after it last changed,
     * with its remaining attempts; default 90; 0 keeps them forever. A pending delivery is always kept. Must
     * be 0 or at least CALLBACK_ATTEMPT_RETENTION_DAYS (attempts go with their delivery). Past it, the admin
     * API answers 404 for the delivery, and a replay of its event would record and send it again.
     */
    CALLBACK_DELIVERY_RETENTION_DAYS: z.coerce.number().min(0).default(90),
  })
  .transform((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    if (production && !env.NOTIFIER_ADMIN_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['NOTIFIER_ADMIN_TOKEN'], message: 'required in production' });
    }
    // 0 is forever: deleting a delivery deletes its attempts, so it may not be kept for less than they are.
    const forever = (days: number) => (days > 0 ? days : Number.POSITIVE_INFINITY);
    if (forever(env.CALLBACK_DELIVERY_RETENTION_DAYS) < forever(env.CALLBACK_ATTEMPT_RETENTION_DAYS)) {
      ctx.addIssue({
        code: 'custom',
        path: ['CALLBACK_DELIVERY_RETENTION_DAYS'],
        message:
          'must be 0 (forever) or at least CALLBACK_ATTEMPT_RETENTION_DAYS: attempts go with their delivery',
      });
    }
    let retryScheduleMs: number[] = [];
    try {
      retryScheduleMs = parseRetrySchedule(env.NOTIFY_RETRY_SCHEDULE);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['NOTIFY_RETRY_SCHEDULE'], message: (err as Error).message });
    }
    return {
      ...env,
      production,
      retryScheduleMs,
      NOTIFIER_ADMIN_TOKEN: env.NOTIFIER_ADMIN_TOKEN ?? 'dev-notifier-admin-token',
    };
  });

export type NotifierConfig = z.output<typeof notifierEnv>;
