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
 * Runs a service's composition root: starts it from the environment, stops it on SIGTERM/SIGINT or when the
 * supervisor that spawned it goes away (in-flight work drains inside `stop`), and turns a startup failure
 * into one clear line and exit 1.
 */
export function runService(name: string, start: (env: NodeJS.ProcessEnv) => Promise<Running>): void {
  let running: Running | undefined;
  let stopping = false;
  // Set when the supervisor is gone: nobody reads our output or our exit status any more.
  let orphaned = false;
  function exit(code: number): never {
    // On exit, pino writes what it still buffers with a synchronous write that retries forever when the
    // pipe's reader is gone (sonic-boom's flushSync on EPIPE): the process would hang, deaf to every signal
    // but SIGKILL. With nobody reading, leave by that signal, which runs no exit handler.
    if (orphaned) process.kill(process.pid, 'SIGKILL');
    return process.exit(code);
  }
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${name}: ${reason}, draining\n`);
    const force = setTimeout(
      () => {
        process.stderr.write(`${name}: drain took too long, exiting\n`);
        exit(1);
      },
      Number(process.env['SHUTDOWN_TIMEOUT_MS'] ?? 25_000),
    );
    force.unref();
    // Still starting: nothing is served yet, so the start is abandoned where it stands. Leaving closes
    // every socket it opened; Postgres rolls back a migration in progress and frees its advisory lock.
    if (!running) exit(0);
    try {
      await running.stop();
      exit(0);
    } catch (err) {
      process.stderr.write(`${name}: error while stopping: ${(err as Error).message}\n`);
      exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM received'));
  process.once('SIGINT', () => void stop('SIGINT received'));
  watchSupervisor(() => {
    orphaned = true;
    void stop('supervisor gone');
  });
  start(process.env).then(
    (r) => {
      running = r;
    },
    (err: Error) => {
      process.stderr.write(`${name}: failed to start: ${err.message}\n`);
      exit(1);
    },
  );
}

/**
 * Calls `gone` once the process that spawned this one exits, however it exits (SIGKILL and crashes
 * included). A supervisor (packages/stack, `npm start`) spawns each service with an IPC channel, which the
 * kernel closes with the supervisor; a process started any other way (a container, a terminal) has no
 * channel, watches nothing, and runs until it is told to stop.
 */
function watchSupervisor(gone: () => void): void {
  // `process.send` exists when the process was spawned with a channel, and stays after the channel closed.
  if (typeof process.send !== 'function') return;
  const onGone = () => {
    // Our stdout and stderr were pipes to the supervisor: writing to them now fails (EPIPE), which is no
    // reason to crash in the middle of the drain.
    process.stdout.on('error', () => {});
    process.stderr.on('error', () => {});
    gone();
  };
  // Closed already: the supervisor died while this process was still loading its modules.
  if (!process.connected) {
    setImmediate(onGone);
    return;
  }
  // The channel carries no message; it must not keep the process alive on its own.
  process.channel?.unref();
  process.once('disconnect', onGone);
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
