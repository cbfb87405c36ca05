// `npm start`: the whole agentpay stack in the foreground on the local Postgres and NATS.
// Checks both first and says how to start them, creates the platform key outside production,
// then starts every service (each creates its database and runs its migrations) and waits for /healthz.
// This process is the services' supervisor: it stops them (SIGTERM, they drain) on Ctrl-C, SIGTERM or SIGHUP,
// at any point of the start, and when its own parent goes away (`kill` of `npm start` kills only npm's shell);
// and if it dies without stopping them (SIGKILL, a crash), each service notices and stops itself
// (packages/stack/README.md).
import { resolve } from 'node:path';
import { checkPostgres, DependencyUnavailableError } from '@agentpay/db';
import { checkNats } from '@agentpay/messaging';
import { DEFAULT_PORTS, type Ports, REPO_ROOT, type Stack, startStack } from '@agentpay/stack';
import { loadPlatformKey } from '@agentpay/wire';
import { z } from 'zod';

const postgresUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const keyFile = resolve(REPO_ROOT, process.env['PLATFORM_PRIVATE_KEY_FILE'] ?? '.agentpay/platform-key.pem');

const portName = z.enum(Object.keys(DEFAULT_PORTS) as [keyof Ports, ...(keyof Ports)[]]);
const settings = z.object({
  /**
   * Ports of the stack: the contract's by default (README.md); `random` for free ones, so a second stack can
   * run beside the first; or `name=port` pairs over the defaults, e.g. `gateway=18080,admin=18081`.
   */
  STACK_PORTS: z
    .string()
    .optional()
    .transform((text, ctx): Partial<Ports> | 'random' => {
      if (text === undefined || text === '') return {};
      if (text === 'random') return 'random';
      const ports: Partial<Ports> = {};
      for (const pair of text.split(',')) {
        const [name, value] = pair.split('=').map((s) => s.trim());
        const key = portName.safeParse(name);
        const port = z.coerce.number().int().min(1).max(65535).safeParse(value);
        if (!key.success || !port.success) {
          ctx.addIssue({
            code: 'custom',
            message: `"${pair}" is not name=port (names: ${portName.options})`,
          });
          return z.NEVER;
        }
        ports[key.data] = port.data;
      }
      return ports;
    }),
  /** Prefix of the services' databases (`<prefix>_gateway`, …) and of the events stream; default agentpay. */
  STACK_DATABASE_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'lower-case letters, digits and _')
    .default('agentpay'),
});

const controller = new AbortController();
let stack: Stack | undefined;

/** Stops the stack, whatever point of its start it has reached, then exits. */
function stop(reason: string): void {
  if (controller.signal.aborted) return;
  process.stdout.write(`\nstopping agentpay (${reason})...\n`);
  // Before the stack is up, startStack sees the abort, stops the services it launched and rejects.
  controller.abort(new Error(reason));
  stack?.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
// `kill` of `npm start` reaches npm and its shell, not this process: it finds itself with another parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('its parent process exited');
}, 500).unref();

async function run(): Promise<void> {
  const parsed = settings.safeParse(process.env);
  if (!parsed.success) {
    process.stderr.write(
      `\nagentpay cannot start: ${parsed.error.issues.map((i) => i.message).join('; ')}\n`,
    );
    process.exit(1);
  }
  const { STACK_PORTS: ports, STACK_DATABASE_PREFIX: databasePrefix } = parsed.data;
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

  if (controller.signal.aborted) process.exit(0);
  try {
    stack = await startStack({
      postgresUrl,
      natsUrl,
      databasePrefix,
      ports,
      env: {
        PLATFORM_PRIVATE_KEY_FILE: keyFile,
        NOTIFY_ALLOW_PRIVATE: process.env['NOTIFY_ALLOW_PRIVATE'] ?? (production ? 'false' : 'true'),
      },
      output: process.env['LOG_FORMAT'] === 'json' ? 'json' : 'pretty',
      signal: controller.signal,
    });
  } catch (err) {
    // Stopped while starting: every service launched has exited.
    if (controller.signal.aborted) process.exit(0);
    throw err;
  }
  const token = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';
  process.stdout.write(
    [
      '',
      'agentpay is ready',
      `  merchant API   ${stack.urls.gateway}/gateway/...   (GET /healthz)`,
      `  admin API      ${stack.urls.admin}/admin/...     (Authorization: Bearer ${production ? '<ADMIN_TOKEN>' : token})`,
      `  sandbox        ${stack.urls.sandbox}/sandbox/...`,
      `  ledger (gRPC)  127.0.0.1:${stack.ports.ledger}   (balances: POST /gateway/query/balance; operators: /admin/...)`,
      `  compliance (gRPC) 127.0.0.1:${stack.ports.compliance} (screening, cases: /admin/screening/..., /admin/compliance/...)`,
      `  platform key   ${keyFile}`,
      '',
      'Every service listens on 127.0.0.1 only (HOST=0.0.0.0 npm start opens them to the network).',
      '',
      'Platform public key (merchants verify replies and callbacks with it):',
      platformKey.publicKeyPem,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

run().catch((err: Error) => {
  process.stderr.write(`\nagentpay failed to start: ${err.message}\n`);
  process.exit(1);
});
