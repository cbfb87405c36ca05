import { z } from 'zod';

export { z };

/** Thrown when the environment does not satisfy a service's schema; the message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses `env` against `schema`, or throws a ConfigError naming each bad variable (never its value). */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
  throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
}

/** A TCP port, 0 meaning "any free port" (tests). */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/**
 * The interface a service's servers listen on: 127.0.0.1 by default, so a stack on a laptop (its admin API
 * and development token included) is reachable from that machine only; containers set HOST=0.0.0.0 (the
 * images and the Kubernetes manifests do) so that other hosts reach them.
 */
export const host = () => z.string().min(1).default('127.0.0.1');

/** A boolean from the environment: `true`/`1`/`yes` are true, anything else false. */
export const flag = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v.toLowerCase()),
    );

/** A duration in milliseconds from a plain integer. */
export const millis = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** Common variables. Each service spreads these into its own schema. */
export const baseEnv = {
  /** `development` (default) or `production`; production refuses unsafe defaults. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** pino log level; default `info`. */
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** Platform time zone for wire date-times; default America/Mexico_City. */
  API_TIME_ZONE: z.string().default('America/Mexico_City'),
  /**
   * Hot statements run as named prepared statements (default true); `false` behind a pooler that cannot
   * keep them, such as PgBouncer in transaction mode before 1.21 (docs/deploy.md).
   */
  DATABASE_PREPARED_STATEMENTS: flag(true),
};

/** Default Postgres URL for a service database on the local server. */
export const defaultDatabaseUrl = (database: string) => `postgres://postgres@127.0.0.1:5432/${database}`;

/** Default NATS URL. */
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

export { isEntryPoint, type Running, runService, runTask } from './run.js';

/**
 * How a service proves itself to NATS (docs/deploy.md "NATS credentials"): a `.creds` file (user JWT and
 * nkey seed) or a user and password, and the CA that signed the NATS server's TLS certificate. None set:
 * an anonymous, plain connection, as on a laptop. The values are read, never logged.
 */
export const natsAuthEnv = {
  /** Path of the service's NATS `.creds` file (user JWT + nkey seed), mounted from its Secret; default none. */
  NATS_CREDS_FILE: z.string().min(1).optional(),
  /** NATS user of the service (the server's `authorization` users); default none. */
  NATS_USER: z.string().min(1).optional(),
  /** Password of NATS_USER; default none. */
  NATS_PASSWORD: z.string().min(1).optional(),
  /** CA certificate (PEM) the NATS server's TLS certificate is checked against; set, the connection uses TLS. */
  NATS_TLS_CA_FILE: z.string().min(1).optional(),
  /**
   * Whether the service declares the events stream and its own durable consumers at start (true, the
   * default, for a laptop and the tests) or only binds to them (false, production: the provision job
   * declares them with admin credentials, so a service never holds JetStream admin rights).
   */
  NATS_PROVISION: flag(true),
};

/** Where status-change events go. Tests give each stack its own stream and subjects. */
export const eventsEnv = {
  ...natsAuthEnv,
  /** JetStream stream holding the platform's events; default AGENTPAY_EVENTS. */
  EVENTS_STREAM: z.string().default('AGENTPAY_EVENTS'),
  /** Subject prefix of the events: `<prefix>.pay.status_changed`, …; default agentpay.events. */
  EVENTS_SUBJECT_PREFIX: z.string().default('agentpay.events'),
  /**
   * Copies JetStream keeps of the events stream (and, through it, of its consumers): 1 (default) on one
   * nats-server, 3 on a three-node cluster so a node can go away without losing an un-acked event; a
   * changed value is applied to the existing stream at start (docs/deploy.md, "Sizing NATS").
   */
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * Days JetStream keeps an event, acknowledged or not; 0 keeps every event forever. Default 7: far longer
   * than any consumer should lag (an event older than this that a consumer has not taken is gone for it),
   * and well inside the notifier's delivery retention, so a consumer created afresh from the start of the
   * stream never replays a callback whose delivery record is gone (docs/deploy.md "Sizing the stream").
   * Every service declaring the stream must carry the same value.
   */
  EVENTS_MAX_AGE_DAYS: z.coerce.number().min(0).default(7),
};

/** The retention job every service with growing tables runs (docs/deploy.md "Retention"). */
export const retentionEnv = {
  /** Pause of the retention job once nothing more is due, ms; 0 turns the job off. Default 60 s. */
  RETENTION_INTERVAL_MS: millis(60_000),
  /** Rows per retention batch (one short DELETE). Default 1000. */
  RETENTION_BATCH: z.coerce.number().int().min(1).max(10_000).default(1_000),
};
