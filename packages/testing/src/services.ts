import { access } from 'node:fs/promises';
import { connect as connectSocket } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { checkPostgres, DependencyUnavailableError } from '@agentpay/db';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS_URL = 'nats://127.0.0.1:4222';
const POSTGRES_IMAGE = 'postgres:15-alpine';
const NATS_IMAGE = 'nats:2';
const CHECK_TIMEOUT_MS = 3_000;

/** Containers this process started, stopped by the global setup's teardown. */
const started: { stop(): Promise<unknown> }[] = [];

let postgresPromise: Promise<string> | undefined;
let natsPromise: Promise<string> | undefined;

/** The Postgres server for integration tests: DATABASE_URL, else a Docker container, else the local one. */
export function postgresUrl(): Promise<string> {
  postgresPromise ??= resolvePostgres().catch((err: unknown) => {
    postgresPromise = undefined;
    throw err;
  });
  return postgresPromise;
}

/** The NATS JetStream server for integration tests: NATS_URL, else a Docker container, else the local one. */
export function natsUrl(): Promise<string> {
  natsPromise ??= resolveNats().catch((err: unknown) => {
    natsPromise = undefined;
    throw err;
  });
  return natsPromise;
}

/** Stops the containers this process started (none when the servers came from the environment). */
export async function stopTestContainers(): Promise<void> {
  const stopping = started.splice(0);
  await Promise.all(stopping.reverse().map((container) => container.stop()));
}

async function resolvePostgres(): Promise<string> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return requirePostgres(fromEnv, 'from DATABASE_URL');
  if (await dockerAvailable()) {
    const url = await startContainer('Postgres', async () => {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer(POSTGRES_IMAGE).start();
      started.push(container);
      return container.getConnectionUri();
    });
    return requirePostgres(url, `a ${POSTGRES_IMAGE} container`);
  }
  return requirePostgres(LOCAL_POSTGRES_URL, 'the local default; no DATABASE_URL and no Docker');
}

async function resolveNats(): Promise<string> {
  const fromEnv = process.env.NATS_URL;
  if (fromEnv) return requireNats(fromEnv, 'from NATS_URL');
  if (await dockerAvailable()) {
    const url = await startContainer('NATS', async () => {
      const { GenericContainer, Wait } = await import('testcontainers');
      const container = await new GenericContainer(NATS_IMAGE)
        .withCommand(['-js'])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start();
      started.push(container);
      return `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
    });
    return requireNats(url, `a ${NATS_IMAGE} container`);
  }
  return requireNats(LOCAL_NATS_URL, 'the local default; no NATS_URL and no Docker');
}

async function startContainer(what: string, start: () => Promise<string>): Promise<string> {
  try {
    return await start();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(
      `integration tests need ${what}: Docker is reachable but starting a ${what} container failed (${reason}); ` +
        `set ${what === 'NATS' ? 'NATS_URL' : 'DATABASE_URL'} to use a running server instead`,
      { cause: err },
    );
  }
}

/** Returns `url` when a Postgres server answers there, else throws saying which URL and how to get one. */
export async function requirePostgres(url: string, source: string): Promise<string> {
  try {
    await checkPostgres(url);
    return url;
  } catch (err) {
    throw explain('Postgres', source, err);
  }
}

/** Returns `url` when a NATS server with JetStream answers there, else throws saying which URL and how. */
export async function requireNats(url: string, source: string): Promise<string> {
  try {
    await probeNats(url);
    return url;
  } catch (err) {
    throw explain('NATS', source, err);
  }
}

function explain(what: string, source: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`integration tests need ${what} (${source}), and it is not usable. ${reason}`, {
    cause: err,
  });
}

/**
 * The same probe as @agentpay/messaging's checkNats; repeated here because messaging's own tests use
 * this package, and a dependency back on messaging would be a cycle turbo refuses.
 */
async function probeNats(url: string): Promise<void> {
  let nc: Awaited<ReturnType<typeof connect>>;
  try {
    nc = await connect({ servers: url.split(','), timeout: CHECK_TIMEOUT_MS, reconnect: false });
  } catch (err) {
    throw new DependencyUnavailableError('nats', url, err);
  }
  try {
    // Fails unless JetStream is enabled, which every service needs.
    await jetstreamManager(nc, { timeout: CHECK_TIMEOUT_MS });
  } catch (err) {
    throw new DependencyUnavailableError('nats', url, err);
  } finally {
    await nc.close();
  }
}

/** Docker is worth trying when DOCKER_HOST is set or a local engine socket accepts a connection. */
async function dockerAvailable(): Promise<boolean> {
  if (process.env.DOCKER_HOST) return true;
  const sockets = ['/var/run/docker.sock', join(homedir(), '.docker/run/docker.sock')];
  if (process.env.XDG_RUNTIME_DIR) sockets.push(join(process.env.XDG_RUNTIME_DIR, 'docker.sock'));
  for (const socket of sockets) {
    if (await socketAccepts(socket)) return true;
  }
  return false;
}

async function socketAccepts(path: string): Promise<boolean> {
  try {
    await access(path);
  } catch {
    return false;
  }
  return new Promise((resolve) => {
    const socket = connectSocket(path);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
