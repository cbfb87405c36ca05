import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { NATS_SERVICES, type NatsService } from '@agentpay/messaging';
import { provisionEventsStream } from '@agentpay/service';
import { startTcpFront, type TcpFront } from './front.js';
import { eventsNaming, type NatsCredentials } from './nats-credentials.js';
import { freePort } from './ports.js';

/** Repository root, so services are found wherever the caller runs from. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const SERVICES = [
  'upstream-sandbox',
  'payments',
  'transfers',
  'upstream-router',
  'ledger',
  'compliance',
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
  routerMetrics: number;
  ledger: number;
  ledgerMetrics: number;
  compliance: number;
  complianceMetrics: number;
  notifier: number;
  sandbox: number;
}

/** The contract's ports (README.md and the README). */
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
  ledger: 50054,
  ledgerMetrics: 9103,
  routerMetrics: 9104,
  compliance: 50055,
  complianceMetrics: 9105,
};

const DATABASES: Record<ServiceName, string> = {
  gateway: 'gateway',
  payments: 'payments',
  transfers: 'transfers',
  'upstream-router': 'router',
  ledger: 'ledger',
  compliance: 'compliance',
  notifier: 'notifier',
  'upstream-sandbox': 'sandbox',
};

export interface StackOptions {
  /** Postgres server URL (any database); each service gets `<databasePrefix>_<service>` on it. */
  postgresUrl: string;
  natsUrl: string;
  /**
   * The NATS server requires credentials (a private one started with `credentials`): as in production,
   * the provision user declares the events stream before any service starts, and each service connects as
   * its own user with NATS_PROVISION=false. Their naming must be this stack's (`eventsNaming(prefix)`).
   * Default none: anonymous, each service declares the stream (the shared NATS of `npm start` and tests).
   */
  natsCredentials?: NatsCredentials;
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
  onLog?: (service: ServiceName, line: string, replica: number) => void;
  /** Readiness deadline, ms; default 60000. */
  readyTimeoutMs?: number;
  /**
   * Aborts the start: the services launched so far are stopped (SIGTERM, they drain) and startStack rejects
   * with the signal's reason, so a supervisor told to stop while the stack comes up leaves nothing behind.
   */
  signal?: AbortSignal;
  /**
   * Processes of every service; default 1. With more, each replica has its own ports; gRPC clients get
   * every replica's address (`ipv4:` list, balanced round-robin) and the internal HTTP hops (notifier,
   * sandbox, notices) go through a local TCP front, as a Kubernetes Service would spread them.
   */
  replicas?: number;
}

export interface Stack {
  /** The first replica's ports (the only one's, with one replica). */
  ports: Ports;
  /** Processes per service. */
  replicas: number;
  /** Each replica's ports, by replica number. */
  replicaPorts: Ports[];
  /** With several replicas, `sandbox` and `notifier` are their TCP fronts; `gateway` and `admin` the first replica's. */
  urls: { gateway: string; admin: string; sandbox: string; notifier: string };
  /** Every gateway replica's merchant API, by replica number (a client spreads over them as a Service would). */
  gatewayUrls: string[];
  databaseUrl(service: ServiceName): string;
  /** Kills one replica of a service at once (SIGKILL), as a crash would; default replica 0. */
  kill(service: ServiceName, replica?: number): Promise<void>;
  /**
   * Starts a killed or stopped service again and waits until the stack is ready: one replica, or every
   * replica when none is named (a running one is stopped first). `env` is laid over the service's
   * environment for this start and later ones (e.g. to change a flag between two test phases).
   */
  restart(service: ServiceName, options?: { env?: Record<string, string>; replica?: number }): Promise<void>;
  /** Whether the replica's process (every replica's, when none is named) is running (not killed, crashed or stopped). */
  running(service: ServiceName, replica?: number): boolean;
  /** Stops every service with SIGTERM (they drain) and waits for them to exit. */
  stop(): Promise<void>;
  /** Process id of each running service's first replica (e.g. to read its memory). */
  pids(): Partial<Record<ServiceName, number>>;
  /** Every running process: service, replica and process id. */
  processes(): { service: ServiceName; replica: number; pid: number }[];
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

async function randomPorts(): Promise<Ports> {
  const ports: Partial<Record<keyof Ports, number>> = {};
  for (const key of Object.keys(DEFAULT_PORTS) as (keyof Ports)[]) ports[key] = await freePort();
  return ports as Ports;
}

/** Starts every agentpay service as its own process (or `replicas` of each) and waits until all report ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  options.signal?.throwIfAborted();
  const replicas = options.replicas ?? 1;
  const replicaPorts: Ports[] = [
    options.ports === 'random' ? await randomPorts() : { ...DEFAULT_PORTS, ...options.ports },
  ];
  while (replicaPorts.length < replicas) replicaPorts.push(await randomPorts());
  const ports = replicaPorts[0]!;
  const prefix = options.databasePrefix ?? 'agentpay';
  const output = options.output ?? 'pretty';
  const local = (port: number) => `127.0.0.1:${port}`;
  const databaseUrl = (service: ServiceName) =>
    withDatabase(options.postgresUrl, `${prefix}_${DATABASES[service]}`);
  // Every replica's address for gRPC clients, which balance over them themselves.
  const grpcTarget = (key: keyof Ports) =>
    replicas === 1 ? local(ports[key]) : `ipv4:${replicaPorts.map((p) => local(p[key])).join(',')}`;
  // The internal HTTP hops go through one front per service, as they would through a Kubernetes Service.
  const fronts: TcpFront[] = [];
  const front = async (key: keyof Ports) => {
    if (replicas === 1) return ports[key];
    const started = await startTcpFront(replicaPorts.map((p) => p[key]));
    fronts.push(started);
    return started.port;
  };
  const httpPorts = {
    notifier: await front('notifier'),
    sandbox: await front('sandbox'),
    routerNotices: await front('routerNotices'),
  };

  // Each stack gets its own stream and subjects, so stacks sharing one NATS never see each other's events.
  const naming = eventsNaming(prefix);
  const credentials = options.natsCredentials;
  if (
    credentials &&
    (credentials.naming.stream !== naming.stream || credentials.naming.subjectPrefix !== naming.subjectPrefix)
  ) {
    throw new Error(
      `startStack: the NATS credentials grant ${credentials.naming.stream} (${credentials.naming.subjectPrefix}.>), this stack uses ${naming.stream} (${naming.subjectPrefix}.>)`,
    );
  }
  const common = {
    NATS_URL: options.natsUrl,
    EVENTS_STREAM: naming.stream,
    EVENTS_SUBJECT_PREFIX: naming.subjectPrefix,
    PAYMENTS_ADDR: grpcTarget('payments'),
    TRANSFERS_ADDR: grpcTarget('transfers'),
    ROUTER_ADDR: grpcTarget('router'),
    LEDGER_ADDR: grpcTarget('ledger'),
    COMPLIANCE_ADDR: grpcTarget('compliance'),
    NOTIFIER_URL: `http://${local(httpPorts.notifier)}`,
    SANDBOX_URL: `http://${local(httpPorts.sandbox)}`,
    PUBLIC_NOTICE_URL: `http://${local(httpPorts.routerNotices)}`,
    // The STP emulator calls the seeded stp route's webhooks on this stack's notice port.
    STP_EMULATOR_WEBHOOK_BASE: `http://${local(httpPorts.routerNotices)}/notices/stp-default`,
    ...options.env,
  };
  const perService = (ports: Ports): Record<ServiceName, Record<string, string>> => ({
    gateway: { GATEWAY_PORT: String(ports.gateway), ADMIN_PORT: String(ports.admin) },
    payments: { GRPC_PORT: String(ports.payments), METRICS_PORT: String(ports.paymentsMetrics) },
    transfers: { GRPC_PORT: String(ports.transfers), METRICS_PORT: String(ports.transfersMetrics) },
    'upstream-router': {
      GRPC_PORT: String(ports.router),
      NOTICE_PORT: String(ports.routerNotices),
      METRICS_PORT: String(ports.routerMetrics),
    },
    ledger: { GRPC_PORT: String(ports.ledger), METRICS_PORT: String(ports.ledgerMetrics) },
    compliance: { GRPC_PORT: String(ports.compliance), METRICS_PORT: String(ports.complianceMetrics) },
    notifier: { NOTIFIER_PORT: String(ports.notifier) },
    'upstream-sandbox': { SANDBOX_PORT: String(ports.sandbox) },
  });

  // With credentials: each NATS client as its own user, binding to the stream the provision step declared.
  const natsEnv = (service: ServiceName): Record<string, string> =>
    credentials && (NATS_SERVICES as readonly string[]).includes(service)
      ? credentials.serviceEnv(service as NatsService)
      : {};
  if (credentials) {
    // The stack's stream settings (and a TLS CA, if given), as the services would read them.
    const shared: Record<string, string> = common;
    await provisionEventsStream({
      ...Object.fromEntries(
        Object.entries(shared).filter(
          ([k]) => k === 'NATS_URL' || k === 'NATS_TLS_CA_FILE' || k.startsWith('EVENTS_'),
        ),
      ),
      ...credentials.provisionEnv(),
    });
  }

  // One process per service and replica, keyed `<service>#<replica>`.
  const key = (service: ServiceName, replica: number) => `${service}#${replica}`;
  const children = new Map<string, ChildProcess>();
  const overrides = new Map<ServiceName, Record<string, string>>();
  const exits = new Map<string, Promise<void>>();
  // The last lines of each process, for the error when the stack does not come up.
  const recent = new Map<string, string[]>();
  const everyReplica = Array.from({ length: replicas }, (_, i) => i);
  let stopping = false;

  function launch(service: ServiceName, replica: number): void {
    const program =
      options.entry === 'bundle'
        ? // As the images run it (IMAGE_NODE_OPTIONS): a stack trace names the TypeScript source.
          ['--enable-source-maps', `services/${service}/dist/main.js`]
        : ['--import', 'tsx', `services/${service}/src/main.ts`];
    const child = spawn(process.execPath, [...(options.nodeArgs?.[service] ?? []), ...program], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...(options.entry === 'bundle' ? { PROTO_DIR: join(REPO_ROOT, 'proto') } : {}),
        DATABASE_URL: databaseUrl(service),
        ...common,
        ...perService(replicaPorts[replica]!)[service],
        ...natsEnv(service),
        ...options.serviceEnv?.[service],
        ...overrides.get(service),
      },
      // The IPC channel carries no message: a service stops when it closes, which the kernel does when this
      // process exits, however it exits (SIGKILL included); see runService and the README.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const label = replicas === 1 ? service : `${service}#${replica}`;
    for (const stream of [child.stdout, child.stderr]) {
      const lines = createInterface({ input: stream! });
      lines.on('line', (line) => {
        const tail = recent.get(label) ?? [];
        tail.push(line);
        if (tail.length > 12) tail.shift();
        recent.set(label, tail);
        options.onLog?.(service, line, replica);
        if (output === 'json') process.stdout.write(`${line}\n`);
        else if (output === 'pretty') process.stdout.write(`${render(label, line)}\n`);
      });
    }
    children.set(key(service, replica), child);
    exits.set(
      key(service, replica),
      new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          if (!stopping && output !== 'silent' && signal !== 'SIGKILL') {
            process.stderr.write(`${label} exited (${signal ?? `code ${code}`})\n`);
          }
          resolve();
        });
      }),
    );
  }

  const isRunning = (child: ChildProcess | undefined) =>
    child !== undefined && child.exitCode === null && child.signalCode === null;

  const tails = () => [...recent].map(([label, lines]) => `${label}:\n  ${lines.join('\n  ')}`).join('\n');

  async function waitReady(): Promise<void> {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    // Each gateway reports ready once its dependencies are; the sandbox is not one of them, and the
    // gateway's probe does not ask the ledger, whose ops server answers once its gRPC server is up.
    const urls = replicaPorts.flatMap((p) => [
      `http://${local(p.gateway)}/healthz`,
      `http://${local(p.sandbox)}/healthz`,
      `http://${local(p.ledgerMetrics)}/healthz`,
      // A gateway is ready once any replica of each service is: each replica's own port says it is up.
      ...(replicas > 1
        ? [p.paymentsMetrics, p.transfersMetrics, p.complianceMetrics, p.routerMetrics, p.notifier].map(
            (port) => `http://${local(port)}/healthz`,
          )
        : []),
    ]);
    let last = '';
    while (Date.now() < deadline) {
      options.signal?.throwIfAborted();
      const probeSignal = options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(2_000)])
        : AbortSignal.timeout(2_000);
      const results = await Promise.all(
        urls.map((url) =>
          fetch(url, { signal: probeSignal }).then(
            async (r) => (r.ok ? '' : `${url}: ${r.status} ${await r.text()}`),
            (err: Error) => `${url}: ${err.message}`,
          ),
        ),
      );
      last = results.filter(Boolean).join('; ');
      if (!last) return;
      options.signal?.throwIfAborted();
      const dead = [...children].find(([, child]) => child.exitCode !== null);
      if (dead) throw new Error(`${dead[0]} exited with code ${dead[1].exitCode} during start\n${tails()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`stack not ready in time: ${last}\n${tails()}`);
  }

  async function stopAll(): Promise<void> {
    stopping = true;
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(exits.values());
    await Promise.all(fronts.map((f) => f.close()));
  }

  for (const service of SERVICES) for (const replica of everyReplica) launch(service, replica);
  try {
    await waitReady();
    // Aborted while the last probe answered: stopped all the same.
    options.signal?.throwIfAborted();
  } catch (err) {
    await stopAll();
    throw err;
  }

  return {
    ports,
    replicas,
    replicaPorts,
    urls: {
      gateway: `http://${local(ports.gateway)}`,
      admin: `http://${local(ports.admin)}`,
      sandbox: `http://${local(httpPorts.sandbox)}`,
      notifier: `http://${local(httpPorts.notifier)}`,
    },
    gatewayUrls: replicaPorts.map((p) => `http://${local(p.gateway)}`),
    databaseUrl,
    async kill(service, replica = 0) {
      children.get(key(service, replica))?.kill('SIGKILL');
      await exits.get(key(service, replica));
    },
    async restart(service, restartOptions) {
      if (restartOptions?.env) overrides.set(service, { ...overrides.get(service), ...restartOptions.env });
      const which = restartOptions?.replica === undefined ? everyReplica : [restartOptions.replica];
      for (const replica of which) {
        const child = children.get(key(service, replica));
        if (isRunning(child)) {
          child!.kill('SIGTERM');
          await exits.get(key(service, replica));
        }
        launch(service, replica);
      }
      await waitReady();
    },
    running(service, replica) {
      const which = replica === undefined ? everyReplica : [replica];
      return which.every((r) => isRunning(children.get(key(service, r))));
    },
    stop: stopAll,
    pids: () =>
      Object.fromEntries(
        SERVICES.map((service) => [service, children.get(key(service, 0))] as const)
          .filter(([, child]) => child?.exitCode === null && child.pid)
          .map(([name, child]) => [name, child!.pid]),
      ),
    processes: () =>
      SERVICES.flatMap((service) =>
        everyReplica.flatMap((replica) => {
          const child = children.get(key(service, replica));
          return child?.exitCode === null && child.pid ? [{ service, replica, pid: child.pid }] : [];
        }),
      ),
  };
}
