import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

/** Repository root, so services are found wherever the caller runs from. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const SERVICES = [
  'upstream-sandbox',
  'payments',
  'transfers',
  'upstream-router',
  'notifier',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface Ports {
  gateway: number;
  admin: number;
  payments: number;
  paymentsMetrics: number;
  transfers: number;
  transfersMetrics: number;
  router: number;
  routerNotices: number;
  notifier: number;
  sandbox: number;
}

/** The contract's ports (CONTRACT.md section 10 and the README). */
export const DEFAULT_PORTS: Ports = {
  gateway: 8080,
  admin: 8081,
  notifier: 8082,
  sandbox: 8090,
  routerNotices: 8091,
  payments: 50051,
  transfers: 50052,
  paymentsMetrics: 9101,
  transfersMetrics: 9102,
  router: 50053,
};

const DATABASES: Record<ServiceName, string> = {
  gateway: 'gateway',
  payments: 'payments',
  transfers: 'transfers',
  'upstream-router': 'router',
  notifier: 'notifier',
  'upstream-sandbox': 'sandbox',
};

export interface StackOptions {
  /** Postgres server URL (any database); each service gets `<databasePrefix>_<service>` on it. */
  postgresUrl: string;
  natsUrl: string;
  /** Database name prefix; default `agentpay`. Tests pass a random one. */
  databasePrefix?: string;
  /** Ports to use; `'random'` picks free ones (tests). Default: the contract's ports. */
  ports?: Partial<Ports> | 'random';
  /** Extra environment for every service (e.g. NOTIFY_RETRY_SCHEDULE). */
  env?: Record<string, string>;
  /** Extra node flags per service, e.g. `--cpu-prof` to profile one under load. */
  nodeArgs?: Partial<Record<ServiceName, string[]>>;
  /**
   * What each service runs: its TypeScript source through tsx (default), or the bundle `npm run bundle`
   * wrote to services/<name>/dist/main.js, as the images run it (plain node, no tsx in memory).
   */
  entry?: 'source' | 'bundle';
  /** Extra environment per service. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Where service output goes: human-readable lines, raw JSON lines, or nowhere. Default `pretty`. */
  output?: 'pretty' | 'json' | 'silent';
  /** Receives every line a service writes (after `output` handling), e.g. to inspect logs in tests. */
  onLog?: (service: ServiceName, line: string) => void;
  /** Readiness deadline, ms; default 60000. */
  readyTimeoutMs?: number;
}

export interface Stack {
  ports: Ports;
  urls: { gateway: string; admin: string; sandbox: string; notifier: string };
  databaseUrl(service: ServiceName): string;
  /** Kills one service at once (SIGKILL), as a crash would. */
  kill(service: ServiceName): Promise<void>;
  /**
   * Starts a killed or stopped service again and waits until the stack is ready. `env` is laid over the
   * service's environment for this start and later ones (e.g. to change a flag between two test phases).
   */
  restart(service: ServiceName, options?: { env?: Record<string, string> }): Promise<void>;
  /** Whether the service's process is running (not killed, crashed or stopped). */
  running(service: ServiceName): boolean;
  /** Stops every service with SIGTERM (they drain) and waits for them to exit. */
  stop(): Promise<void>;
  /** Process id of each running service (e.g. to read its memory). */
  pids(): Partial<Record<ServiceName, number>>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function render(service: string, line: string): string {
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const { time, level, msg, service: _s, pid: _p, hostname: _h, ...rest } = entry;
    const clock = typeof time === 'string' ? time.slice(11, 19) : '';
    const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
    return `${clock} ${service.padEnd(16)} ${String(level).padEnd(5)} ${String(msg ?? '')}${extra}`;
  } catch {
    return `${''.padEnd(8)} ${service.padEnd(16)} ${line}`;
  }
}

/** Starts every agentpay service as its own process and waits until the gateway reports ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const ports: Ports =
    options.ports === 'random'
      ? {
          gateway: await freePort(),
          admin: await freePort(),
          payments: await freePort(),
          paymentsMetrics: await freePort(),
          transfers: await freePort(),
          transfersMetrics: await freePort(),
          router: await freePort(),
          routerNotices: await freePort(),
          notifier: await freePort(),
          sandbox: await freePort(),
        }
      : { ...DEFAULT_PORTS, ...options.ports };
  const prefix = options.databasePrefix ?? 'agentpay';
  const output = options.output ?? 'pretty';
  const local = (port: number) => `127.0.0.1:${port}`;
  const databaseUrl = (service: ServiceName) =>
    withDatabase(options.postgresUrl, `${prefix}_${DATABASES[service]}`);

  const common = {
    NATS_URL: options.natsUrl,
    // Each stack gets its own stream and subjects, so stacks sharing one NATS never see each other's events.
    EVENTS_STREAM: prefix === 'agentpay' ? 'AGENTPAY_EVENTS' : `${prefix.toUpperCase()}_EVENTS`,
    EVENTS_SUBJECT_PREFIX: prefix === 'agentpay' ? 'agentpay.events' : `${prefix}.events`,
    PAYMENTS_ADDR: local(ports.payments),
    TRANSFERS_ADDR: local(ports.transfers),
    ROUTER_ADDR: local(ports.router),
    NOTIFIER_URL: `http://${local(ports.notifier)}`,
    SANDBOX_URL: `http://${local(ports.sandbox)}`,
    PUBLIC_NOTICE_URL: `http://${local(ports.routerNotices)}`,
    ...options.env,
  };
  const perService: Record<ServiceName, Record<string, string>> = {
    gateway: { GATEWAY_PORT: String(ports.gateway), ADMIN_PORT: String(ports.admin) },
    payments: { GRPC_PORT: String(ports.payments), METRICS_PORT: String(ports.paymentsMetrics) },
    transfers: { GRPC_PORT: String(ports.transfers), METRICS_PORT: String(ports.transfersMetrics) },
    'upstream-router': { GRPC_PORT: String(ports.router), NOTICE_PORT: String(ports.routerNotices) },
    notifier: { NOTIFIER_PORT: String(ports.notifier) },
    'upstream-sandbox': { SANDBOX_PORT: String(ports.sandbox) },
  };

  const children = new Map<ServiceName, ChildProcess>();
  const overrides = new Map<ServiceName, Record<string, string>>();
  const exits = new Map<ServiceName, Promise<void>>();
  let stopping = false;

  function launch(service: ServiceName): void {
    const program =
      options.entry === 'bundle'
        ? [`services/${service}/dist/main.js`]
        : ['--import', 'tsx', `services/${service}/src/main.ts`];
    const child = spawn(process.execPath, [...(options.nodeArgs?.[service] ?? []), ...program], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...(options.entry === 'bundle' ? { PROTO_DIR: join(REPO_ROOT, 'proto') } : {}),
        DATABASE_URL: databaseUrl(service),
        ...common,
        ...perService[service],
        ...options.serviceEnv?.[service],
        ...overrides.get(service),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      const lines = createInterface({ input: stream! });
      lines.on('line', (line) => {
        options.onLog?.(service, line);
        if (output === 'json') process.stdout.write(`${line}\n`);
        else if (output === 'pretty') process.stdout.write(`${render(service, line)}\n`);
      });
    }
    children.set(service, child);
    exits.set(
      service,
      new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          if (!stopping && output !== 'silent' && signal !== 'SIGKILL') {
            process.stderr.write(`${service} exited (${signal ?? `code ${code}`})\n`);
          }
          resolve();
        });
      }),
    );
  }

  async function waitReady(): Promise<void> {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    const urls = [`http://${local(ports.gateway)}/healthz`, `http://${local(ports.sandbox)}/healthz`];
    let last = '';
    while (Date.now() < deadline) {
      const results = await Promise.all(
        urls.map((url) =>
          fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
            async (r) => (r.ok ? '' : `${url}: ${r.status} ${await r.text()}`),
            (err: Error) => `${url}: ${err.message}`,
          ),
        ),
      );
      last = results.filter(Boolean).join('; ');
      if (!last) return;
      const dead = [...children].find(([, child]) => child.exitCode !== null);
      if (dead) throw new Error(`${dead[0]} exited with code ${dead[1].exitCode} during start`);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`stack not ready in time: ${last}`);
  }

  async function stopAll(): Promise<void> {
    stopping = true;
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(exits.values());
  }

  for (const service of SERVICES) launch(service);
  try {
    await waitReady();
  } catch (err) {
    await stopAll();
    throw err;
  }

  return {
    ports,
    urls: {
      gateway: `http://${local(ports.gateway)}`,
      admin: `http://${local(ports.admin)}`,
      sandbox: `http://${local(ports.sandbox)}`,
      notifier: `http://${local(ports.notifier)}`,
    },
    databaseUrl,
    async kill(service) {
      children.get(service)?.kill('SIGKILL');
      await exits.get(service);
    },
    async restart(service, restartOptions) {
      if (restartOptions?.env) overrides.set(service, { ...overrides.get(service), ...restartOptions.env });
      const child = children.get(service);
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exits.get(service);
      }
      launch(service);
      await waitReady();
    },
    running(service) {
      const child = children.get(service);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    stop: stopAll,
    pids: () =>
      Object.fromEntries(
        [...children]
          .filter(([, child]) => child.exitCode === null && child.pid)
          .map(([name, child]) => [name, child.pid]),
      ),
  };
}
