import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gate, natsUrl, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Bus,
  closedPort,
  createStore,
  notifierTestEnv,
  payEvent,
  platformKeys,
  type Sink,
  type Store,
  startBus,
  startSink,
} from './helpers.js';

// Durability: the notifier as a real process (node --import tsx src/main.ts),
// killed with SIGKILL and started again. The schedule lives in Postgres and events wait in JetStream, so
// nothing is lost and an acknowledged callback is never sent again.

const SERVICE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const keys = platformKeys();
let store: Store;
let bus: Bus;
let env: Record<string, string>;
let port: number;
let child: ChildProcess | undefined;
const sinks: Sink[] = [];
const output: string[] = [];

async function startNotifier(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVICE_ROOT,
    env: { PATH: process.env['PATH'], ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [proc.stdout, proc.stderr])
    stream?.on('data', (b: Buffer) => output.push(b.toString()));
  child = proc;
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`notifier exited during start:\n${output.join('')}`);
      const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return r?.ok;
    },
    { timeoutMs: 30_000, intervalMs: 100, message: 'notifier process ready' },
  );
  return proc;
}

function exited(proc: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (proc.exitCode !== null || proc.signalCode !== null) {
    return Promise.resolve({ code: proc.exitCode, signal: proc.signalCode });
  }
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
}

async function kill(proc: ChildProcess): Promise<void> {
  proc.kill('SIGKILL');
  expect((await exited(proc)).signal).toBe('SIGKILL');
}

beforeAll(async () => {
  store = await createStore('notifier_crash');
  bus = await startBus('crash');
  port = await closedPort();
  env = notifierTestEnv({
    databaseUrl: store.database.url,
    natsUrl: await natsUrl(),
    bus,
    privateKeyPem: keys.privateKeyPem,
    overrides: {
      NOTIFIER_PORT: String(port),
      // Captured, and shown only when a test fails.
      LOG_LEVEL: 'info',
      // The first retry waits long enough for the kill and the restart to happen in between.
      NOTIFY_RETRY_SCHEDULE: '3s,200ms,200ms',
      NOTIFY_TIMEOUT_MS: '1000',
      NOTIFY_LEASE_MARGIN_MS: '1000',
    },
  });
});

// A failure is easier to read with what the notifier processes said.
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    process.stderr.write(`notifier output:\n${output.join('').slice(-20_000)}\n`);
  });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await Promise.all(sinks.map((s) => s.close()));
  await bus?.close();
  await store?.close();
});

describe('a notifier killed with SIGKILL and restarted', () => {
  it('still delivers a callback that was waiting for its retry, exactly once', async () => {
    const target = await startSink((_r, i) => ({ status: 200, body: i === 0 ? 'FAIL' : 'SUCCESS' }));
    sinks.push(target);
    const first = await startNotifier();
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    await waitFor(async () => {
      const row = await store.delivery(event.event_id);
      return row && row.attempt_count === 1 && row.status === 'pending' && row.lease_until === null;
    });
    await kill(first);

    // Published while no notifier runs: it waits in JetStream for the durable consumer.
    const whileDown = payEvent({ notifyUrl: target.url });
    await bus.publish(whileDown);

    await startNotifier();
    const rows = await waitFor(
      async () => {
        const a = await store.delivery(event.event_id);
        const b = await store.delivery(whileDown.event_id);
        return a?.status === 'succeeded' && b?.status === 'succeeded' ? [a, b] : undefined;
      },
      { timeoutMs: 15_000, message: 'both callbacks delivered after the restart' },
    );
    const [row] = rows;
    const attempts = await store.attempts(row!.id);
    expect(attempts.map((a) => a.outcome)).toEqual(['failed', 'succeeded']);
    // One FAIL, then one SUCCESS for the first event; one SUCCESS for the second.
    const eventIds = target.requests.map((r) => r.headers['x-agentpay-delivery-id']);
    expect(eventIds).toHaveLength(3);
    expect(eventIds.filter((id) => id === row!.id)).toHaveLength(2);
  });

  it('takes over a callback that was in flight when the process died, once its lease expires', async () => {
    const target = await startSink((_r, i) => (i === 0 ? 'hang' : { status: 200, body: 'SUCCESS' }));
    sinks.push(target);
    if (child && child.exitCode === null) await kill(child);
    const proc = await startNotifier();
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    await waitFor(() => target.hanging() === 1, { message: 'the first attempt is in flight' });
    await kill(proc);

    await startNotifier();
    const row = await waitFor(
      async () => {
        const r = await store.delivery(event.event_id);
        return r?.status === 'succeeded' ? r : undefined;
      },
      { timeoutMs: 15_000, message: 'delivered by the restarted notifier' },
    );
    const attempts = await store.attempts(row.id);
    expect(attempts.map((a) => a.outcome)).toEqual(['abandoned', 'succeeded']);
    expect(attempts[0]!.error).toMatch(/stopped before recording/);
    expect(target.requests).toHaveLength(2);
  });

  it('on SIGTERM lets the callback in flight finish and records it before exiting', async () => {
    // The merchant answers only once the notifier is draining, so the callback is surely in flight then.
    const draining = gate();
    const target = await startSink(async () => {
      await draining.opened;
      return { status: 200, body: 'SUCCESS' };
    });
    sinks.push(target);
    if (!child || child.exitCode !== null || child.signalCode !== null) await startNotifier();
    const proc = child!;
    const event = payEvent({ notifyUrl: target.url });
    await bus.publish(event);
    await waitFor(() => target.requests.length === 1, { message: 'the callback is in flight' });
    proc.kill('SIGTERM');
    await waitFor(() => output.join('').includes('SIGTERM received, draining'), {
      message: 'the notifier to start draining',
    });
    draining.open();
    expect((await exited(proc)).code).toBe(0);

    const row = await store.delivery(event.event_id);
    expect(row).toMatchObject({ status: 'succeeded', attempt_count: 1, lease_until: null });
  });
});
