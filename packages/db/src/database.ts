import type { Logger } from '@agentpay/logger';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { DependencyUnavailableError, redactUrl } from './errors.js';
import { preparedName } from './prepared.js';

/** How long a start-up check waits for Postgres before calling it unreachable. */
const CHECK_TIMEOUT_MS = 3_000;

const INT8_OID = 20;

/** Money is stored as int8 centavos (at most ~1e10), well inside the range a JS number holds exactly. */
function parseInt8(value: string): number {
  const parsed = Number(value);
  // Failing loudly beats silently rounding someone's balance; select such a column `::text` instead.
  if (!Number.isSafeInteger(parsed))
    throw new RangeError(`int8 value ${value} does not fit a JS number exactly`);
  return parsed;
}

/** Per-pool parsers (not the global pg.types) so nothing else in the process changes behaviour. */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export interface CreateDbOptions {
  /** Maximum pool connections; default 10. Migrations need at least 2 (one holds the lock). */
  poolSize?: number;
  /** Shown in pg_stat_activity, so an operator can tell the services apart. */
  applicationName?: string;
  /** Receives errors of idle pooled connections (e.g. a Postgres restart). */
  logger?: Logger;
  /**
   * `false` commits without waiting for the WAL flush (`synchronous_commit = off`): a Postgres crash may
   * forget the last fraction of a second of commits. Only for writes that may be lost, such as replay
   * nonces; default true.
   */
  synchronousCommit?: boolean;
  /**
   * Run the statements given to `executePrepared` as named prepared statements (default true). Turn off
   * behind a connection pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
}

/**
 * Settings every connection starts with. JIT compilation is off: these are short OLTP statements, and once a
 * table grows its estimates cross `jit_above_cost` and Postgres compiles each statement before running it
 * (the notifier's claim on 100,000 due callbacks: 70 ms of JIT for 8 ms of execution, docs/benchmarks.md
 * "Callback backlog"), on every execution, since JIT code is not cached.
 */
export function sessionOptions(opts: Pick<CreateDbOptions, 'synchronousCommit'>): string {
  return ['-c jit=off', ...(opts.synchronousCommit === false ? ['-c synchronous_commit=off'] : [])].join(' ');
}

type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes `client` run registered statement texts by name; pg then parses each once per connection. */
function nameRegisteredStatements(client: pg.PoolClient): void {
  const target = client as unknown as { query: QueryFn };
  const query = target.query.bind(client) as QueryFn;
  target.query = (config, values, callback) => {
    const name = typeof config === 'string' ? preparedName(config) : undefined;
    return name === undefined
      ? query(config, values, callback)
      : query({ name, text: config, values }, callback);
  };
}

/** A Kysely instance on a pg pool: int8 → number, numeric → string, timestamptz → Date. */
export function createDb<DB>(url: string, opts: CreateDbOptions = {}): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    application_name: opts.applicationName,
    options: sessionOptions(opts),
    // Without it, a query during a Postgres outage (or an exhausted pool) waits forever instead of failing.
    connectionTimeoutMillis: 10_000,
    types: TYPES,
  });
  // A connection that dies emits 'error': on the pool while idle, on the client while checked out. Unhandled,
  // either would crash the process over a Postgres restart or failover. The query in flight rejects on its
  // own, and the pool discards the broken client and opens a new one on the next query.
  pool.on('error', (err) => opts.logger?.warn({ err }, 'idle Postgres connection failed'));
  pool.on('connect', (client) => {
    client.on('error', (err) => opts.logger?.warn({ err }, 'Postgres connection failed while in use'));
    if (opts.preparedStatements !== false) nameRegisteredStatements(client);
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** True for a Postgres unique violation (23505), optionally only on the named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== '23505') return false;
  return constraint === undefined || (err as { constraint?: string }).constraint === constraint;
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`database URL names no database: ${redactUrl(url)}`);
  return name;
}

/** The same server and user, on the `postgres` maintenance database that always exists. */
function maintenanceUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}

/** Creates the URL's database if it does not exist yet; safe when several processes race to do it. */
export async function ensureDatabase(url: string, logger?: Logger): Promise<void> {
  const name = databaseName(url);
  const client = new pg.Client({
    connectionString: maintenanceUrl(url),
    connectionTimeoutMillis: CHECK_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (err) {
    throw new DependencyUnavailableError('postgres', url, err);
  }
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount) return;
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    logger?.info({ database: name }, 'created database');
  } catch (err) {
    // Another replica created it between our check and our create: 42P04, or 23505 on the catalog index.
    if (pgCode(err) === '42P04' || isUniqueViolation(err, 'pg_database_datname_index')) return;
    throw err;
  } finally {
    await client.end();
  }
}

/** Throws DependencyUnavailableError unless the Postgres server behind `url` answers within ~3 s. */
export async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CHECK_TIMEOUT_MS,
    query_timeout: CHECK_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (err) {
    // The server answered; a missing database is ensureDatabase's job, not an outage.
    if (pgCode(err) === '3D000') return;
    throw new DependencyUnavailableError('postgres', url, err);
  }
  try {
    await client.query('select 1');
  } catch (err) {
    throw new DependencyUnavailableError('postgres', url, err);
  } finally {
    await client.end().catch(() => {});
  }
}
