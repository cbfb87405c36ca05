import { parseConfig, type z } from '@agentpay/config';
import { createDb, ensureDatabase, migrateToLatest, type RetentionRule, retentionLoop } from '@agentpay/db';
import { createLogger, type Logger } from '@agentpay/logger';
import { bindStream, connectNats, ensureStream, withJetStreamPatience } from '@agentpay/messaging';
import { startBackgroundLoop } from '@agentpay/runtime';
import { Counter, createRegistry, installTracing, type Registry } from '@agentpay/telemetry';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Kysely, Migration } from 'kysely';

/** The variables bootstrapService reads; each service's schema declares those it uses. */
interface CommonConfig {
  LOG_LEVEL: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  DATABASE_URL?: string;
  DATABASE_PREPARED_STATEMENTS?: boolean;
  NATS_URL?: string;
  NATS_CREDS_FILE?: string | undefined;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_PROVISION?: boolean;
  EVENTS_STREAM?: string;
  EVENTS_SUBJECT_PREFIX?: string;
  EVENTS_STREAM_REPLICAS?: number;
  EVENTS_MAX_AGE_DAYS?: number;
  RETENTION_INTERVAL_MS?: number;
  RETENTION_BATCH?: number;
}

export interface BootstrapOptions<S extends z.ZodType<CommonConfig, unknown>> {
  /** The service's name: on its logs, spans, metrics and database connections. */
  name: string;
  /** The service's environment schema (`src/config.ts`). */
  schema: S;
  env: NodeJS.ProcessEnv;
  /** Export spans (default true; the sandbox, a stand-in channel, has none). */
  tracing?: boolean;
}

export interface ServiceBase<C> {
  config: C;
  logger: Logger;
  registry: Registry;
  /** Creates the service's database if missing, migrates it (advisory-locked) and opens its pool. */
  database<DB>(migrations: Record<string, Migration>, opts?: { poolSize?: number }): Promise<Kysely<DB>>;
  /**
   * Connects to NATS with the service's credentials and declares the events stream (idempotent, every
   * start), or with NATS_PROVISION=false only checks that the provision step declared it.
   */
  events(): Promise<NatsConnection>;
  /**
   * Starts the retention job (docs/deploy.md "Retention") on `rules`: bounded-batch deletes every
   * RETENTION_INTERVAL_MS (`retentionEnv`), counted in `retention_deleted_rows_total{table}`; nothing
   * when the interval is 0 or no rule is turned on. Stops with the service.
   */
  retention<DB>(db: Kysely<DB>, rules: readonly RetentionRule[]): void;
  /** Registers something to stop with the service; `stop()` closes them in reverse order of registration. */
  own<T>(what: string, thing: T, close: (thing: T) => Promise<unknown> | unknown): T;
  /**
   * Builds the rest of the service; if that throws, closes what was opened so far and rethrows, so a
   * failed start leaves no pool, connection or timer behind.
   */
  run<T>(build: () => Promise<T>): Promise<T>;
  /** Closes everything registered, newest first: servers, then consumers and loops, NATS, the database. */
  stop(): Promise<void>;
}

/**
 * The start every service shares: parse the environment (only here, so tests pass plain objects), then a
 * logger, tracing and a metrics registry. The database and NATS are opened on request, each registered to
 * close after whatever is built on them.
 */
export async function bootstrapService<S extends z.ZodType<CommonConfig, unknown>>(
  opts: BootstrapOptions<S>,
): Promise<ServiceBase<z.output<S>>> {
  const config = parseConfig(opts.schema, opts.env) as z.output<S> & CommonConfig;
  const logger = createLogger({ service: opts.name, level: config.LOG_LEVEL });
  const registry = createRegistry(opts.name);
  const closers: { what: string; close: () => Promise<unknown> | unknown }[] = [];

  const own: ServiceBase<z.output<S>>['own'] = (what, thing, close) => {
    closers.push({ what, close: () => close(thing) });
    return thing;
  };

  if (opts.tracing !== false) {
    own(
      'tracing',
      installTracing({ service: opts.name, otlpEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT }),
      (t) => t.shutdown(),
    );
  }

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      let firstError: unknown;
      for (const { what, close } of closers.splice(0).reverse()) {
        try {
          await close();
        } catch (err) {
          logger.error({ err, what }, 'error while stopping');
          firstError ??= err;
        }
      }
      logger.info(`${opts.name} stopped`);
      if (firstError !== undefined) throw firstError;
    })();
    return stopped;
  };

  return {
    config,
    logger,
    registry,
    own,
    stop,
    async database<DB>(migrations: Record<string, Migration>, dbOpts: { poolSize?: number } = {}) {
      const url = required(config.DATABASE_URL, 'DATABASE_URL', opts.name);
      await ensureDatabase(url, logger);
      const db = own(
        'database',
        createDb<DB>(url, {
          applicationName: opts.name,
          logger,
          ...(dbOpts.poolSize !== undefined && { poolSize: dbOpts.poolSize }),
          ...(config.DATABASE_PREPARED_STATEMENTS !== undefined && {
            preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
          }),
        }),
        (d) => d.destroy(),
      );
      await migrateToLatest(db, migrations, logger);
      return db;
    },
    retention(db, rules) {
      const intervalMs = config.RETENTION_INTERVAL_MS ?? 60_000;
      if (intervalMs <= 0 || rules.length === 0) return;
      const deleted = new Counter({
        name: 'retention_deleted_rows_total',
        help: 'Rows the retention job deleted past their retention, by table',
        labelNames: ['table'],
        registers: [registry],
      });
      own(
        'retention',
        startBackgroundLoop(
          retentionLoop({
            db,
            rules,
            intervalMs,
            batchSize: config.RETENTION_BATCH ?? 1_000,
            logger,
            onDeleted: (table, rows) => deleted.inc({ table }, rows),
          }),
        ),
        (loop) => loop.stop(),
      );
    },
    async events() {
      const url = required(config.NATS_URL, 'NATS_URL', opts.name);
      const auth = {
        ...(config.NATS_CREDS_FILE !== undefined && { credsFile: config.NATS_CREDS_FILE }),
        ...(config.NATS_USER !== undefined && { user: config.NATS_USER }),
        ...(config.NATS_PASSWORD !== undefined && { password: config.NATS_PASSWORD }),
        ...(config.NATS_TLS_CA_FILE !== undefined && { tlsCaFile: config.NATS_TLS_CA_FILE }),
      };
      // Replies come back on its user's own inbox, the only one that user may read (permissions.ts); the
      // generated server config names each user after its service.
      const inboxOwner = config.NATS_USER ?? opts.name;
      const nc = own('nats', await connectNats(url, { name: opts.name, logger, auth, inboxOwner }), (c) =>
        c.drain(),
      );
      const stream = required(config.EVENTS_STREAM, 'EVENTS_STREAM', opts.name);
      const prefix = required(config.EVENTS_SUBJECT_PREFIX, 'EVENTS_SUBJECT_PREFIX', opts.name);
      if (config.NATS_PROVISION === false) {
        await withJetStreamPatience('binding to the events stream', () => bindStream(nc, stream));
        return nc;
      }
      // A cluster that is electing leaders (a node just lost) answers late or 503: wait for it, not exit.
      await withJetStreamPatience(
        'declaring the events stream',
        () =>
          ensureStream(nc, {
            name: stream,
            subjects: [`${prefix}.>`],
            maxAgeMs: Math.round((config.EVENTS_MAX_AGE_DAYS ?? 0) * 86_400_000),
            ...(config.EVENTS_STREAM_REPLICAS !== undefined && { replicas: config.EVENTS_STREAM_REPLICAS }),
          }),
        {
          onRetry: (err, attempt) =>
            logger.warn(
              { err: err.message, attempt },
              'JetStream not answering yet; declaring the stream again',
            ),
        },
      );
      return nc;
    },
    async run(build) {
      try {
        return await build();
      } catch (err) {
        await stop().catch(() => {});
        throw err;
      }
    },
  };
}

function required<T>(value: T | undefined, name: string, service: string): T {
  if (value === undefined) throw new Error(`${service}: its config schema has no ${name}`);
  return value;
}
