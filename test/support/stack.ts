import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Stack, type StackOptions, startStack } from '@agentpay/stack';
import { natsUrl, postgresUrl } from '@agentpay/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';

/**
 * What test stacks run: each service's bundle, which the integration tests' global setup writes from the
 * sources before any test (test/support/bundle-services.ts), as the images run it; or, with
 * AGENTPAY_TEST_SERVICES=source, the TypeScript sources through tsx.
 */
export function testServiceEntry(): 'source' | 'bundle' {
  const chosen = process.env['AGENTPAY_TEST_SERVICES'];
  if (chosen !== undefined && chosen !== 'source' && chosen !== 'bundle') {
    throw new Error(`AGENTPAY_TEST_SERVICES must be "source" or "bundle", not "${chosen}"`);
  }
  return chosen ?? 'bundle';
}

/**
 * Starts the whole stack as real processes on random ports, with databases, event stream and platform
 * key of its own; `stop()` also drops the databases so test runs leave nothing behind.
 */
export async function startTestStack(options: Partial<StackOptions> = {}): Promise<Stack> {
  const server = await postgresUrl();
  const prefix = `t_${randomBytes(4).toString('hex')}`;
  const keyDir = `/tmp/agentpay-test-${prefix}`;
  const nats = await natsUrl();
  const stack = await startStack({
    postgresUrl: server,
    natsUrl: nats,
    databasePrefix: prefix,
    ports: 'random',
    entry: testServiceEntry(),
    output: process.env['STACK_OUTPUT'] === 'pretty' ? 'pretty' : 'silent',
    ...options,
    env: {
      PLATFORM_PRIVATE_KEY_FILE: `${keyDir}/platform-key.pem`,
      NOTIFY_ALLOW_PRIVATE: 'true',
      ...options.env,
    },
  });
  const stop = stack.stop;
  return {
    ...stack,
    async stop() {
      await stop();
      rmSync(keyDir, { recursive: true, force: true });
      await dropDatabases(server, prefix);
      await deleteStream(nats, `${prefix.toUpperCase()}_EVENTS`);
    },
  };
}

/** Drops every database named `<prefix>_…` on the server. */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${prefix}\\_%`],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

/** Deletes a JetStream stream, if it exists. */
export async function deleteStream(url: string, name: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(name).catch(() => false);
  } finally {
    await nc.close();
  }
}
