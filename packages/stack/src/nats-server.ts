import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
}

/** A private nats-server with JetStream, for tests and fault runs that must not disturb a shared one. */
export interface NatsServer {
  url: string;
  port: number;
  storeDir: string;
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

/** Starts `nats-server -a 127.0.0.1 -p <port> -js -sd <dir>` and waits until it accepts connections. */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const port = options.port ?? (await freePort());
  const ownDir = options.storeDir === undefined;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'agentpay-nats-'));
  const binary = options.binary ?? process.env['NATS_SERVER_BIN'] ?? '/usr/sbin/nats-server';
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  let child: ChildProcess | undefined;
  let output = '';

  async function start(): Promise<void> {
    output = '';
    const proc = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [proc.stdout, proc.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8_000);
      });
    }
    child = proc;
    const deadline = Date.now() + readyTimeoutMs;
    // JetStream is ready once the server logs it; the port alone opens a moment earlier.
    while (!/Server is ready/.test(output) || !(await accepts(port))) {
      if (proc.exitCode !== null) throw new Error(`nats-server exited during start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`nats-server not ready on ${port}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function kill(): Promise<void> {
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    kill,
    start,
    async restart({ downMs = 0 } = {}) {
      await kill();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
      if (ownDir) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
