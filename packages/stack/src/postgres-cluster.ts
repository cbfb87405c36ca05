import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';

const run = promisify(execFile);

export interface PostgresClusterOptions {
  /** Port on 127.0.0.1; default a free one. Kept across restarts so clients reconnect. */
  port?: number;
  /** Directory of the server binaries; default `PG_BIN_DIR` or `/usr/lib/postgresql/15/bin`. */
  binDir?: string;
  /** Parent of the cluster's temporary directory; default `/tmp`. */
  parentDir?: string;
  /** OS user that owns and runs the cluster when this process is root (initdb refuses root); default `postgres`. */
  osUser?: string;
}

/** A throw-away Postgres cluster (initdb in a temporary directory), for fault runs that restart Postgres. */
export interface PostgresCluster {
  /** Server URL, user `postgres`, trust authentication, database `postgres`. */
  url: string;
  port: number;
  dataDir: string;
  /**
   * Stops the server and starts it again. `immediate` is a crash (no checkpoint, recovery on start),
   * `fast` a clean shutdown that disconnects clients.
   */
  restart(options?: { mode?: 'immediate' | 'fast'; downMs?: number }): Promise<void>;
  /** Stops the server and removes the cluster. */
  stop(): Promise<void>;
}

/** initdb + pg_ctl start on a free port; as root, runs the server binaries as `osUser`. */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const binDir = options.binDir ?? process.env['PG_BIN_DIR'] ?? '/usr/lib/postgresql/15/bin';
  const port = options.port ?? (await freePort());
  const root = mkdtempSync(join(options.parentDir ?? '/tmp', 'agentpay-pg-'));
  const dataDir = join(root, 'data');
  const asRoot = userInfo().uid === 0;
  const osUser = options.osUser ?? 'postgres';
  if (asRoot) {
    const { stdout } = await run('id', ['-u', osUser]);
    const { stdout: gid } = await run('id', ['-g', osUser]);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const exec = (binary: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', osUser, '--', join(binDir, binary), ...args], { cwd: root })
      : run(join(binDir, binary), args, { cwd: root });

  const serverOptions = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    '-c fsync=off',
  ].join(' ');
  const start = () =>
    exec('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(root, 'server.log'),
      '-o',
      serverOptions,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stopServer = (mode: 'immediate' | 'fast') =>
    exec('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);

  try {
    await exec('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await start();
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async restart({ mode = 'immediate', downMs = 0 } = {}) {
      await stopServer(mode);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    async stop() {
      await stopServer('fast').catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
