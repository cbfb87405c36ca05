import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when the module at `moduleUrl` is the process entry point (so importing it starts nothing). */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

export interface Running {
  stop(): Promise<void>;
}

/**
 * Runs a service's composition root: starts it from the environment, stops it on SIGTERM/SIGINT
 * (in-flight work drains inside `stop`), and turns a startup failure into one clear line and exit 1.
 */
export function runService(name: string, start: (env: NodeJS.ProcessEnv) => Promise<Running>): void {
  let running: Running | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${name}: ${signal} received, draining\n`);
    const force = setTimeout(
      () => {
        process.stderr.write(`${name}: drain took too long, exiting\n`);
        process.exit(1);
      },
      Number(process.env['SHUTDOWN_TIMEOUT_MS'] ?? 25_000),
    );
    force.unref();
    try {
      await running?.stop();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`${name}: error while stopping: ${(err as Error).message}\n`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  start(process.env).then(
    (r) => {
      running = r;
      if (stopping) void r.stop();
    },
    (err: Error) => {
      process.stderr.write(`${name}: failed to start: ${err.message}\n`);
      process.exit(1);
    },
  );
}

/**
 * Runs a one-shot task (a migration) as the process entry: exit 0 when it resolves, 1 with one clear line
 * when it fails. Exits explicitly so a lingering handle can never keep a Job's pod running.
 */
export function runTask(name: string, task: (env: NodeJS.ProcessEnv) => Promise<void>): void {
  task(process.env).then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`${name}: ${err.message}\n`);
      process.exit(1);
    },
  );
}
