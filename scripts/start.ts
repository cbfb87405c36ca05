// `npm start`: the whole agentpay stack in the foreground on the local Postgres and NATS.
// Checks both first and says how to start them, creates the platform key outside production,
// then starts every service (each creates its database and runs its migrations) and waits for /healthz.
import { resolve } from 'node:path';
import { checkPostgres, DependencyUnavailableError } from '@agentpay/db';
import { checkNats } from '@agentpay/messaging';
import { REPO_ROOT, startStack } from '@agentpay/stack';
import { loadPlatformKey } from '@agentpay/wire';

const postgresUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const keyFile = resolve(REPO_ROOT, process.env['PLATFORM_PRIVATE_KEY_FILE'] ?? '.agentpay/platform-key.pem');

async function run(): Promise<void> {
  try {
    await Promise.all([checkPostgres(postgresUrl), checkNats(natsUrl)]);
  } catch (err) {
    if (err instanceof DependencyUnavailableError) {
      process.stderr.write(`\nagentpay cannot start: ${err.message}\n\n`);
      process.exit(1);
    }
    throw err;
  }
  const production = process.env['NODE_ENV'] === 'production';
  const platformKey = loadPlatformKey({
    pem: process.env['PLATFORM_PRIVATE_KEY'],
    file: keyFile,
    production,
  });

  const stack = await startStack({
    postgresUrl,
    natsUrl,
    env: {
      PLATFORM_PRIVATE_KEY_FILE: keyFile,
      NOTIFY_ALLOW_PRIVATE: process.env['NOTIFY_ALLOW_PRIVATE'] ?? (production ? 'false' : 'true'),
    },
    output: process.env['LOG_FORMAT'] === 'json' ? 'json' : 'pretty',
  });
  const token = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';
  process.stdout.write(
    [
      '',
      'agentpay is ready',
      `  merchant API   ${stack.urls.gateway}/gateway/...   (GET /healthz)`,
      `  admin API      ${stack.urls.admin}/admin/...     (Authorization: Bearer ${production ? '<ADMIN_TOKEN>' : token})`,
      `  sandbox        ${stack.urls.sandbox}/sandbox/...`,
      `  ledger (gRPC)  127.0.0.1:${stack.ports.ledger}   (balances: POST /gateway/query/balance; operators: /admin/...)`,
      `  platform key   ${keyFile}`,
      '',
      'Platform public key (merchants verify replies and callbacks with it):',
      platformKey.publicKeyPem,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nstopping agentpay...\n');
    stack.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

run().catch((err: Error) => {
  process.stderr.write(`\nagentpay failed to start: ${err.message}\n`);
  process.exit(1);
});
