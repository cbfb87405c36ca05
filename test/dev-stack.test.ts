// `npm start` as a developer uses it: the supervisor (scripts/start.ts) stopped by Ctrl-C's siblings, SIGTERM
// and SIGKILL, at any point of its start, must leave no service behind and every port free for the next
// start; the services listen on 127.0.0.1 only. The supervisor runs on ports, databases and an events stream
// of its own (STACK_PORTS, STACK_DATABASE_PREFIX), so it meets no other stack.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { DEFAULT_PORTS, freePort, type Ports, REPO_ROOT, SERVICES } from '@agentpay/stack';
import { natsUrl, postgresUrl, uniqueName, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceEnv } from '../services/compliance/src/config.js';
import { gatewayEnv } from '../services/gateway/src/config.js';
import { ledgerEnv } from '../services/ledger/src/config.js';
import { notifierEnv } from '../services/notifier/src/config.js';
import { paymentsEnv } from '../services/payments/src/config.js';
import { transfersEnv } from '../services/transfers/src/config.js';
import { routerEnv } from '../services/upstream-router/src/config.js';
import { sandboxEnv } from '../services/upstream-sandbox/src/config.js';
import {
  descendants,
  gone,
  listeningAddresses,
  type Proc,
  portFree,
  processInfo,
} from './support/processes.js';
import { deleteStream, dropDatabases } from './support/stack.js';

// Every service's drain limit (SHUTDOWN_TIMEOUT_MS). The services must be gone well inside it: a stop
// that only ends when the limit forces it is a hang, not a drain.
const GRACE_MS = 20_000;
const PROMPT_MS = 8_000;

interface Supervisor {
  child: ChildProcess;
  /** Every line it wrote (its own and, as JSON, the services'). */
  lines: string[];
}

function launch(command: 'npm' | 'node', env: NodeJS.ProcessEnv): Supervisor {
  const args = command === 'npm' ? ['start'] : ['--import', 'tsx', 'scripts/start.ts'];
  const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    });
  }
  return { child, lines };
}

const tail = (s: Supervisor) => s.lines.slice(-40).join('\n');

/** The service processes under `root`, once all seven run: service name, pid and start time. */
async function servicesUnder(root: number): Promise<(Proc & { service: string })[]> {
  return waitFor(
    () => {
      const found = descendants(root).flatMap((p) => {
        const service = /services\/([a-z-]+)\/src\/main\.ts/.exec(p.cmdline)?.[1];
        return service ? [{ ...p, service }] : [];
      });
      return found.length === SERVICES.length && found;
    },
    { timeoutMs: 30_000, intervalMs: 100, message: `the seven services under ${root}` },
  );
}

async function ready(s: Supervisor): Promise<void> {
  await waitFor(() => s.lines.includes('agentpay is ready') || s.child.exitCode !== null, {
    timeoutMs: 90_000,
    intervalMs: 100,
    message: 'agentpay is ready',
  });
  expect(s.child.exitCode, tail(s)).toBeNull();
}

/** Waits until every process is gone; returns how long that took. */
async function allGone(procs: Proc[], within: number, what: () => string): Promise<number> {
  const from = Date.now();
  await waitFor(() => procs.every(gone), {
    timeoutMs: within,
    intervalMs: 50,
    message: `still running: ${procs
      .filter((p) => !gone(p))
      .map((p) => p.cmdline)
      .join(', ')}\n${what()}`,
  });
  return Date.now() - from;
}

describe('npm start, the supervisor of the development stack', () => {
  const prefix = `t_${randomBytes(4).toString('hex')}`;
  const keyDir = `/tmp/agentpay-test-${prefix}`;
  let ports: Ports;
  let env: NodeJS.ProcessEnv;
  let server: string;
  let nats: string;
  // Every process a test started, so that a failed test leaves none running.
  const started: Proc[] = [];

  beforeAll(async () => {
    server = await postgresUrl();
    nats = await natsUrl();
    const picked: Partial<Ports> = {};
    for (const key of Object.keys(DEFAULT_PORTS) as (keyof Ports)[]) picked[key] = await freePort();
    ports = picked as Ports;
    env = {
      ...process.env,
      DATABASE_URL: server,
      NATS_URL: nats,
      STACK_PORTS: Object.entries(ports)
        .map(([name, port]) => `${name}=${port}`)
        .join(','),
      STACK_DATABASE_PREFIX: prefix,
      PLATFORM_PRIVATE_KEY_FILE: `${keyDir}/platform-key.pem`,
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_MS: String(GRACE_MS),
      npm_config_update_notifier: 'false',
    };
  });

  afterAll(async () => {
    for (const p of started) if (!gone(p)) process.kill(p.pid, 'SIGKILL');
    rmSync(keyDir, { recursive: true, force: true });
    await dropDatabases(server, prefix);
    await deleteStream(nats, `${prefix.toUpperCase()}_EVENTS`);
  });

  async function expectPortsFree(): Promise<void> {
    const held = [];
    for (const [name, port] of Object.entries(ports))
      if (!(await portFree(port))) held.push(`${name} ${port}`);
    expect(held).toEqual([]);
  }

  it('stops every service when `npm start` is killed while the services are still starting', async () => {
    const npm = launch('npm', env);
    const services = await servicesUnder(npm.child.pid!);
    // npm runs the script through a shell: npm, then sh, then the supervisor, the services' parent.
    const supervisor = descendants(npm.child.pid!).find((p) => p.pid === services[0]!.ppid)!;
    expect(supervisor.cmdline).toContain('scripts/start.ts');
    started.push(supervisor, ...services);
    // A service has begun its start (connected, creating its database or migrating), none is ready yet.
    await waitFor(() => npm.lines.some((l) => l.startsWith('{')), { timeoutMs: 30_000, intervalMs: 50 });
    expect(npm.lines).not.toContain('agentpay is ready');

    // `kill` reaches npm, which passes it to its shell only; the supervisor finds itself without a parent.
    npm.child.kill('SIGTERM');
    const took = await allGone([supervisor, ...services], GRACE_MS, () => tail(npm));
    expect(took, tail(npm)).toBeLessThan(PROMPT_MS);
    await expectPortsFree();
  }, 120_000);

  it('starts on the same ports, listens on 127.0.0.1 only, and leaves nothing behind on SIGTERM', async () => {
    const supervisor = launch('node', env);
    const services = await servicesUnder(supervisor.child.pid!);
    started.push(...services);
    await ready(supervisor);
    expect((await fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).status).toBe(200);
    for (const [name, port] of Object.entries(ports)) {
      expect(listeningAddresses(port), `${name} ${port}`).toEqual(['127.0.0.1']);
    }

    supervisor.child.kill('SIGTERM');
    const took = await allGone(services, GRACE_MS, () => tail(supervisor));
    expect(took, tail(supervisor)).toBeLessThan(PROMPT_MS);
    await waitFor(() => supervisor.child.exitCode !== null, { timeoutMs: 5_000 });
    expect(supervisor.child.exitCode, tail(supervisor)).toBe(0);
    await expectPortsFree();
  }, 120_000);

  it('starts again after that SIGTERM, and leaves nothing behind when the supervisor is SIGKILLed', async () => {
    const supervisor = launch('node', env);
    const services = await servicesUnder(supervisor.child.pid!);
    started.push(...services);
    await ready(supervisor);
    expect((await fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).status).toBe(200);

    // No signal handler, no drain of its own: each service notices its supervisor is gone.
    supervisor.child.kill('SIGKILL');
    const took = await allGone(services, GRACE_MS, () => tail(supervisor));
    expect(took).toBeLessThan(PROMPT_MS);
    await expectPortsFree();
  }, 120_000);

  it('starts again after that SIGKILL', async () => {
    const supervisor = launch('node', env);
    const services = await servicesUnder(supervisor.child.pid!);
    started.push(...services);
    await ready(supervisor);
    expect((await fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).status).toBe(200);

    supervisor.child.kill('SIGINT');
    await allGone(services, GRACE_MS, () => tail(supervisor));
    await waitFor(() => supervisor.child.exitCode !== null, { timeoutMs: 5_000 });
    await expectPortsFree();
  }, 120_000);
});

describe('a service run on its own', () => {
  let blackhole: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // A "Postgres" that accepts connections and never answers: a server still starting, or far away.
    blackhole = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackhole.close(resolve));
  });

  it('runs on when the process that started it exits (no supervisor), and stops on SIGTERM', async () => {
    const server = await postgresUrl();
    const prefix = uniqueName('t_alone');
    const port = await freePort();
    // A shell starts the sandbox in the background and exits, as a terminal or a process manager might.
    const shell = spawn(
      'sh',
      ['-c', 'node --import tsx services/upstream-sandbox/src/main.ts >/dev/null 2>&1 & echo $!'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: new URL(`/${prefix}_sandbox`, server).toString(),
          SANDBOX_PORT: String(port),
          SHUTDOWN_TIMEOUT_MS: String(GRACE_MS),
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let out = '';
    shell.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise((resolve) => shell.once('exit', resolve));
    const pid = Number(out.trim());
    const sandbox = await waitFor(() => processInfo(pid), { message: 'the sandbox process' });
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, {
        timeoutMs: 60_000,
        intervalMs: 200,
        message: 'the sandbox ready',
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(gone(sandbox)).toBe(false);

      process.kill(pid, 'SIGTERM');
      await allGone([sandbox], PROMPT_MS, () => 'the sandbox after SIGTERM');
    } finally {
      if (!gone(sandbox)) process.kill(pid, 'SIGKILL');
      await dropDatabases(server, prefix);
    }
  }, 90_000);

  it('ends at once on SIGTERM while it is still connecting to Postgres', async () => {
    const { port } = blackhole.address() as { port: number };
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/ledger/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/ledger`,
        GRPC_PORT: '0',
        METRICS_PORT: '0',
        SHUTDOWN_TIMEOUT_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => sockets.length > 0, {
      timeoutMs: 30_000,
      message: 'the ledger connecting to Postgres',
    });
    expect(child.exitCode).toBeNull();

    const from = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - from).toBeLessThan(2_000);
  });
});

describe('the interface the services listen on', () => {
  it('is 127.0.0.1 unless HOST says otherwise, for every service', () => {
    const schemas = [
      gatewayEnv,
      ledgerEnv,
      notifierEnv,
      paymentsEnv,
      transfersEnv,
      routerEnv,
      sandboxEnv,
      complianceEnv,
    ];
    expect(schemas).toHaveLength(SERVICES.length);
    for (const schema of schemas) {
      expect(schema.parse({}).HOST).toBe('127.0.0.1');
      expect(schema.parse({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    }
  });
});
