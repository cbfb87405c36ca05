import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventsNaming, type NatsCredentials, natsCredentials } from './nats-credentials.js';
import { freePort } from './ports.js';

export interface NatsServerOptions {
  /** Port to listen on (127.0.0.1); default a free one. Kept across restarts so clients reconnect. */
  port?: number;
  /** JetStream store directory; default a new temporary one, removed by `stop()`. */
  storeDir?: string;
  /** The nats-server binary; default `NATS_SERVER_BIN` or `/usr/sbin/nats-server`. */
  binary?: string;
  /** Readiness deadline, ms; default 15000. */
  readyTimeoutMs?: number;
  /** A server config file (`-c`), e.g. the generated `authorization` block; default none. */
  configFile?: string;
  /** Extra environment of the server process (the users' `$NATS_PASSWORD_<USER>` values). */
  env?: Record<string, string>;
  /**
   * Require credentials as production does: one user per service limited to its own subjects, consumers
   * and inbox, and the provision user, for this stream and subject prefix (`credentials` on the result).
   * Not together with `configFile`.
   */
  credentials?: EventsNaming;
}

/** A private nats-server with JetStream, for tests and fault runs that must not disturb a shared one. */
export interface NatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** The users and passwords, when started with `credentials`; anonymous clients are then refused. */
  credentials?: NatsCredentials;
  /** HTTP monitoring port (`/varz`, `/connz`, `/jsz`). */
  monitorPort: number;
  /** SIGKILL, as a crash would; the store directory stays. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store (after `kill`), and waits until it accepts connections. */
  start(): Promise<void>;
  /** `kill` then `start`. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stops it and removes a store directory it created. */
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function binaryOf(binary: string | undefined): string {
  const path = binary ?? process.env['NATS_SERVER_BIN'] ?? '/usr/sbin/nats-server';
  if (!existsSync(path)) {
    throw new Error(
      `nats-server is not installed at ${path}: install it (https://docs.nats.io/running-a-nats-service/introduction/installation) or point NATS_SERVER_BIN at it`,
    );
  }
  return path;
}

/** One nats-server process on a fixed port with a fixed store, that can be killed and started again. */
function natsProcess(opts: {
  binary: string;
  port: number;
  storeDir: string;
  args: string[];
  env?: Record<string, string>;
  readyTimeoutMs: number;
  /** Extra readiness condition once the server logged that it is ready. */
  ready?: () => Promise<boolean>;
}): Pick<NatsServer, 'kill' | 'start' | 'restart'> & { running(): boolean; pid(): number | undefined } {
  let child: ChildProcess | undefined;
  let output = '';

  async function start(): Promise<void> {
    output = '';
    const proc = spawn(
      opts.binary,
      ['-a', '127.0.0.1', '-p', String(opts.port), '-js', '-sd', opts.storeDir, ...opts.args],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } },
    );
    for (const stream of [proc.stdout, proc.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8_000);
      });
    }
    child = proc;
    const deadline = Date.now() + opts.readyTimeoutMs;
    // JetStream is ready once the server logs it; the port alone opens a moment earlier.
    while (
      !/Server is ready/.test(output) ||
      !(await accepts(opts.port)) ||
      (opts.ready !== undefined && !(await opts.ready()))
    ) {
      if (proc.exitCode !== null) throw new Error(`nats-server exited during start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`nats-server not ready on ${opts.port}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function kill(): Promise<void> {
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  return {
    kill,
    start,
    async restart({ downMs = 0 } = {}) {
      await kill();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    pid: () => child?.pid,
  };
}

async function terminate(node: { running(): boolean; pid(): number | undefined }): Promise<void> {
  const pid = node.pid();
  if (!node.running() || pid === undefined) return;
  process.kill(pid, 'SIGTERM');
  while (node.running()) await new Promise((r) => setTimeout(r, 20));
}

/** Starts `nats-server -a 127.0.0.1 -p <port> -js -sd <dir>` and waits until it accepts connections. */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const binary = binaryOf(options.binary);
  const port = options.port ?? (await freePort());
  if (options.credentials && options.configFile)
    throw new Error('startNatsServer: credentials or configFile, not both');
  const credentials = options.credentials && natsCredentials(options.credentials);
  const configFile = credentials?.configFile ?? options.configFile;
  const ownDir = options.storeDir === undefined;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'agentpay-nats-'));
  const monitorPort = await freePort();
  const node = natsProcess({
    binary,
    port,
    storeDir,
    args: ['-m', String(monitorPort), ...(configFile ? ['-c', configFile] : [])],
    env: { ...credentials?.serverEnv, ...options.env },
    readyTimeoutMs: options.readyTimeoutMs ?? 15_000,
  });
  try {
    await node.start();
  } catch (err) {
    await terminate(node);
    credentials?.remove();
    if (ownDir) rmSync(storeDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    monitorPort,
    ...(credentials && { credentials }),
    kill: node.kill,
    start: node.start,
    restart: node.restart,
    async stop() {
      await terminate(node);
      credentials?.remove();
      if (ownDir) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

export interface NatsClusterOptions {
  /** Servers in the cluster; default 3 (JetStream needs a majority of them up to elect leaders). */
  nodes?: number;
  /** The nats-server binary; default `NATS_SERVER_BIN` or `/usr/sbin/nats-server`. */
  binary?: string;
  /** Readiness deadline of each node, ms; default 30000. */
  readyTimeoutMs?: number;
  /** Require credentials on every node, as `startNatsServer`'s option (`credentials` on the result). */
  credentials?: EventsNaming;
}

/** One server of a cluster: its name (as JetStream reports leaders) and its client port. */
export interface NatsClusterNode extends Omit<NatsServer, 'stop'> {
  name: string;
  /** HTTP monitoring port (`/varz`, `/jsz`, `/routez`). */
  monitorPort: number;
  running(): boolean;
}

/** A JetStream cluster of nats-servers on loopback, joined by routes, each with its own store. */
export interface NatsCluster {
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  url: string;
  name: string;
  nodes: NatsClusterNode[];
  /** The name of the server leading `stream`'s replicas, asked of a running node; undefined during an election. */
  streamLeader(stream: string): Promise<string | undefined>;
  /** The users and passwords, when started with `credentials`; anonymous clients are then refused. */
  credentials?: NatsCredentials;
  /** Stops every node and removes their stores. */
  stop(): Promise<void>;
}

interface JszStream {
  name: string;
  cluster?: { leader?: string };
}

/**
 * Starts a JetStream cluster of `nodes` nats-servers on 127.0.0.1, each routed to every other, and waits
 * until they have elected a JetStream meta leader (before that, no stream can be created).
 */
export async function startNatsCluster(options: NatsClusterOptions = {}): Promise<NatsCluster> {
  const binary = binaryOf(options.binary);
  const count = options.nodes ?? 3;
  const name = `agentpay-${Math.random().toString(36).slice(2, 8)}`;
  const root = mkdtempSync(join(tmpdir(), 'agentpay-nats-cluster-'));
  const credentials = options.credentials && natsCredentials(options.credentials);
  const specs: { name: string; port: number; routePort: number; monitorPort: number; storeDir: string }[] =
    [];
  for (let i = 0; i < count; i++) {
    const storeDir = join(root, `n${i + 1}`);
    mkdirSync(storeDir);
    specs.push({
      name: `${name}-n${i + 1}`,
      port: await freePort(),
      routePort: await freePort(),
      monitorPort: await freePort(),
      storeDir,
    });
  }
  const routes = specs.map((s) => `nats://127.0.0.1:${s.routePort}`).join(',');
  const jsz = async (monitorPort: number, query = ''): Promise<Record<string, unknown> | undefined> => {
    try {
      const res = await fetch(`http://127.0.0.1:${monitorPort}/jsz${query}`, {
        signal: AbortSignal.timeout(1_000),
      });
      return res.ok ? ((await res.json()) as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const nodes: (NatsClusterNode & { pid(): number | undefined })[] = specs.map((spec) => {
    const node = natsProcess({
      binary,
      port: spec.port,
      storeDir: spec.storeDir,
      args: [
        '-n',
        spec.name,
        '--cluster_name',
        name,
        '--cluster',
        `nats://127.0.0.1:${spec.routePort}`,
        '--routes',
        routes,
        '-m',
        String(spec.monitorPort),
        // Clients only: the routes between the nodes (on loopback) carry no credentials.
        ...(credentials ? ['-c', credentials.configFile] : []),
      ],
      ...(credentials && { env: credentials.serverEnv }),
      readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
      // Clients may use the node once it knows the cluster's JetStream meta leader.
      ready: async () => {
        const meta = (await jsz(spec.monitorPort))?.['meta_cluster'] as { leader?: string } | undefined;
        return Boolean(meta?.leader);
      },
    });
    return {
      ...node,
      name: spec.name,
      port: spec.port,
      monitorPort: spec.monitorPort,
      url: `nats://127.0.0.1:${spec.port}`,
      storeDir: spec.storeDir,
    };
  });

  const stop = async () => {
    await Promise.all(nodes.map((n) => terminate(n)));
    rmSync(root, { recursive: true, force: true });
    credentials?.remove();
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    url: nodes.map((n) => n.url).join(','),
    name,
    nodes,
    ...(credentials && { credentials }),
    async streamLeader(stream) {
      for (const node of nodes.filter((n) => n.running())) {
        const info = await jsz(node.monitorPort, '?accounts=true&streams=true');
        if (!info) continue;
        const accounts = (info['account_details'] ?? []) as { stream_detail?: JszStream[] }[];
        for (const account of accounts) {
          const found = account.stream_detail?.find((s) => s.name === stream);
          if (found) return found.cluster?.leader || undefined;
        }
      }
      return undefined;
    },
    stop,
  };
}
