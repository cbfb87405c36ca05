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
import { defaultHolidays, parseHolidays } from './settlement/calendar.js';

const positive = (fallback: number, max = 10_000) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

/** The ledger service's environment. */
export const ledgerEnv = z
  .object({
    ...baseEnv,
    /**
     * Interface the gRPC server and the metrics server listen on; default 127.0.0.1, this machine only. The
     * images and the Kubernetes manifests set 0.0.0.0, so that other hosts reach them.
     */
    HOST: host(),
    /** gRPC port; default 50054. */
    GRPC_PORT: port(50054),
    /** HTTP port serving GET /metrics (Prometheus) and /healthz; default 9103. */
    METRICS_PORT: port(9103),
    /** OTLP/HTTP traces endpoint (e.g. http://otel-collector:4318/v1/traces); unset: spans are not exported. */
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
    /** The service's own database; created if missing. */
    DATABASE_URL: z.string().default(defaultDatabaseUrl('agentpay_ledger')),
    /** Postgres connections of one replica; default 10. At least 2: a sweep holds one for its lock. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
    /** NATS with JetStream, for the events consumed and the outbox relay; default nats://127.0.0.1:4222. */
    NATS_URL: z.string().default(DEFAULT_NATS_URL),
    ...eventsEnv,
    /** RETENTION_INTERVAL_MS, RETENTION_BATCH: the retention job (docs/deploy.md "Retention"). */
    ...retentionEnv,
    /** Days a published outbox row is kept (an unpublished one always is); default 7; 0 keeps them forever. */
    OUTBOX_RETENTION_DAYS: z.coerce.number().min(0).default(7),
    /** Days the channels' statement lines are kept; default 400 (past a year of re-runs); 0 keeps them forever. */
    STATEMENT_RETENTION_DAYS: z.coerce.number().min(0).default(400),
    /** Days a settlement run's row is kept; default 400 (past a year of history); 0 keeps them forever. */
    SETTLEMENT_RUN_RETENTION_DAYS: z.coerce.number().min(0).default(400),
    /** Durable JetStream consumer of pay and transfer status changes the replicas share; default `ledger`. */
    LEDGER_CONSUMER: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('ledger'),
    /** How long JetStream waits for an event's ack before redelivering it, ms; default 30000. */
    LEDGER_ACK_WAIT_MS: positive(30_000, 3_600_000),
    /** Batches of events booked at once by one replica; default 4. */
    LEDGER_CONSUME_CONCURRENCY: positive(4, 64),
    /** Most events handed over at once; default 100. */
    LEDGER_CONSUME_BATCH: positive(100, 1_000),
    /**
     * Most bookings of one merchant in one transaction; default 256. Concurrent freezes of a hot
     * merchant share its next transaction, each with its own entry and key.
     */
    LEDGER_MAX_BATCH: positive(256, 1_000),
    /**
     * Bank holidays for settlement, comma-separated yyyy-MM-dd; replaces the bundled list
     * (src/settlement/mx-bank-holidays.json) when set.
     */
    SETTLEMENT_HOLIDAYS: z.string().optional(),
    /** Pause between two settlement sweeps, ms; default 60000. 0 turns the sweep off. */
    SETTLEMENT_SWEEP_INTERVAL_MS: millis(60_000),
    /** Pay-ins settled per sweep transaction; default 500. */
    SETTLEMENT_BATCH: positive(500, 5_000),
    /** The upstream router (statements, routes, return payouts); default 127.0.0.1:50053. */
    ROUTER_ADDR: z.string().default('127.0.0.1:50053'),
    /** Lines and movements more recent than this are pending in a reconciliation, not discrepancies, ms; default 3600000 (1 h). */
    RECON_GRACE_MS: millis(3_600_000),
    /** Wall-clock time (HH:mm, API_TIME_ZONE) after which the previous day is reconciled; default 06:00. */
    RECON_TIME: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm')
      .default('06:00'),
    /** How often the daily schedule looks whether its run is due, ms; default 60000. 0 turns it off (RunReconciliation still works). */
    RECON_SCHEDULE_INTERVAL_MS: millis(60_000),
    /** `on` (default) or `off`: `off` turns the daily schedule off, like RECON_SCHEDULE_INTERVAL_MS=0 (tests, sandboxes). */
    RECON_SCHEDULE: z.enum(['on', 'off']).default('on'),
    /** Statement lines per insert while a statement streams in; default 1000. */
    RECON_BATCH: positive(1_000, 10_000),
    /** Pause between two checks of the return payouts in flight, ms; default 5000 (one indexed read when none is). 0 turns the loop off. */
    RECON_RETURN_POLL_MS: millis(5_000),
  })
  // Checked in the transform, not a refine: the migrate entry picks fields from the plain object schema.
  .transform((env, ctx) => {
    let holidays: string[] = [];
    try {
      holidays =
        env.SETTLEMENT_HOLIDAYS === undefined ? defaultHolidays() : parseHolidays(env.SETTLEMENT_HOLIDAYS);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message, path: ['SETTLEMENT_HOLIDAYS'] });
    }
    return { ...env, holidays, production: env.NODE_ENV === 'production' };
  });

export type LedgerConfig = z.output<typeof ledgerEnv>;
