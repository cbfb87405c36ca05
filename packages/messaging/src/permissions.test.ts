import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsumer } from './consumer.js';
import { connectNats } from './nats.js';
import {
  DEFAULT_DURABLES,
  inboxPrefixOf,
  NATS_PROVISION_USER,
  NATS_SERVICES,
  natsAuthorizationConfig,
  passwordVariable,
  productionAuthorization,
  serviceTraffic,
} from './permissions.js';
import { bindStream, ensureStream, noticeSubject, publishEvent, statusChangedSubject } from './streams.js';

// A nats-server of the test's own, with the production rights (no service may declare the stream).
const BINARY = process.env['NATS_SERVER_BIN'] ?? '/usr/sbin/nats-server';
const PREFIX = 'authtest.events';
const STREAM = 'AUTHTEST_EVENTS';
const passwords = Object.fromEntries(
  [...NATS_SERVICES, NATS_PROVISION_USER].map((user) => [user, randomBytes(12).toString('hex')]),
);
let dir: string;
let server: ChildProcess;
let url: string;
const open: NatsConnection[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function as(user: string, password = passwords[user]): Promise<NatsConnection> {
  const nc = await connectNats(url, {
    name: `auth-test-${user}`,
    auth: { user, password },
    inboxOwner: user,
  });
  open.push(nc);
  return nc;
}

/** The async errors the server sends a connection (a permissions violation is one). */
function errorsOf(nc: NatsConnection): string[] {
  const errors: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.error));
  })();
  return errors;
}

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`nats-server is not installed at ${BINARY}: set NATS_SERVER_BIN`);
  dir = mkdtempSync(join(tmpdir(), 'agentpay-nats-auth-'));
  const config = join(dir, 'auth.conf');
  writeFileSync(config, natsAuthorizationConfig({ prefix: PREFIX, stream: STREAM, declareStream: false }));
  const port = await freePort();
  url = `nats://127.0.0.1:${port}`;
  // nats-server parses the variable's value as a config value: quoted, any password is a string.
  const env = Object.fromEntries(Object.entries(passwords).map(([u, p]) => [passwordVariable(u), `"${p}"`]));
  server = spawn(BINARY, ['-c', config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  for (const s of [server.stdout, server.stderr]) s?.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 30_000;
  while (!/Server is ready/.test(output)) {
    if (server.exitCode !== null) throw new Error(`nats-server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`nats-server not ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}, 40_000);

afterAll(async () => {
  for (const nc of open) await nc.close().catch(() => {});
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('NATS credentials and per-service permissions', () => {
  it('refuses a connection without credentials or with a wrong password', async () => {
    await expect(connectNats(url, { name: 'anonymous' })).rejects.toThrow(/Authorization Violation/i);
    await expect(as('payments', 'not-the-password')).rejects.toThrow(/Authorization Violation/i);
  });

  it('lets the provision user create the stream, and no service', async () => {
    const payments = await as('payments');
    await expect(bindStream(payments, STREAM)).rejects.toThrow(/NATS_PROVISION=false/);
    await expect(ensureStream(payments, { name: STREAM, subjects: [`${PREFIX}.>`] })).rejects.toThrow();
    const provision = await as(NATS_PROVISION_USER);
    const info = await ensureStream(provision, { name: STREAM, subjects: [`${PREFIX}.>`] });
    expect(info.config.name).toBe(STREAM);
    expect((await bindStream(payments, STREAM)).config.name).toBe(STREAM);
  }, 30_000);

  it('lets a service publish its own subjects and refuses it another service’s', async () => {
    const payments = await as('payments');
    const errors = errorsOf(payments);
    const seq = await publishEvent(payments, statusChangedSubject(PREFIX, 'pay'), { event_id: 'pay-1' });
    expect(seq).toBeGreaterThan(0);

    // A transfer status change and a notice belong to transfers and the router: refused, never stored.
    const forged = [statusChangedSubject(PREFIX, 'transfer'), noticeSubject(PREFIX, 'payment')];
    for (const subject of forged) {
      await expect(publishEvent(payments, subject, { event_id: `forged-${subject}` })).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 200));
    for (const subject of forged) {
      expect(errors.some((e) => e.includes('Permissions Violation') && e.includes(subject))).toBe(true);
    }
    const jsm = await jetstreamManager(await as(NATS_PROVISION_USER));
    const stored = await jsm.streams.info(STREAM, { subjects_filter: `${PREFIX}.>` });
    expect(Object.keys(stored.state.subjects ?? {})).toEqual([statusChangedSubject(PREFIX, 'pay')]);
  }, 30_000);

  it('lets a service declare and read its own durable consumer only, without JetStream admin rights', async () => {
    const router = await as('upstream-router');
    await publishEvent(router, noticeSubject(PREFIX, 'payment'), { event_id: 'notice-1' });
    const payments = await as('payments');
    const own = { stream: STREAM, maxAckPending: 10, ackWaitMs: 5_000 };
    await ensureConsumer(payments, {
      ...own,
      durable: DEFAULT_DURABLES.paymentsNotices,
      filterSubject: noticeSubject(PREFIX, 'payment'),
    });
    // Again, as a second start does: the update path is allowed too.
    await ensureConsumer(payments, {
      ...own,
      durable: DEFAULT_DURABLES.paymentsNotices,
      filterSubject: noticeSubject(PREFIX, 'payment'),
    });
    await expect(
      ensureConsumer(payments, {
        ...own,
        durable: DEFAULT_DURABLES.transfersNotices,
        filterSubject: noticeSubject(PREFIX, 'payout'),
      }),
    ).rejects.toThrow();

    const consumer = await jetstream(payments).consumers.get(STREAM, DEFAULT_DURABLES.paymentsNotices);
    const msg = await consumer.next({ expires: 5_000 });
    expect(msg?.subject).toBe(noticeSubject(PREFIX, 'payment'));
    expect(await msg?.ackAck()).toBe(true);
    // No JetStream admin right: deleting the stream or another service's consumer is refused.
    const jsm = await jetstreamManager(payments);
    await expect(jsm.streams.delete(STREAM)).rejects.toThrow();
    await expect(jsm.consumers.delete(STREAM, DEFAULT_DURABLES.paymentsNotices)).rejects.toThrow();
  }, 30_000);
});

describe('private inboxes', () => {
  it('lets a service read replies on its own inbox only, never another service’s or the shared one', async () => {
    const transfers = await as('transfers');
    // Its own JetStream answers arrive: the stream's info (created by the test above).
    expect((await bindStream(transfers, STREAM)).config.name).toBe(STREAM);

    const payments = await as('payments');
    const errors = errorsOf(payments);
    for (const subject of [`${inboxPrefixOf('transfers')}.>`, '_INBOX.>', '>']) {
      const sub = payments.subscribe(subject);
      // The server refuses the subscription: a permissions violation naming it, and the subscription closes.
      await expect(sub.closed).resolves.toBeInstanceOf(Error);
    }
    await new Promise((r) => setTimeout(r, 200));
    for (const subject of [`${inboxPrefixOf('transfers')}.>`, '_INBOX.>']) {
      expect(
        errors.some((e) => e.includes('Permissions Violation') && e.includes(`Subscription to "${subject}"`)),
        subject,
      ).toBe(true);
    }
    // A connection on the shared inbox gets no answer at all: its user may not read `_INBOX.>`.
    const shared = await connectNats(url, {
      name: 'auth-test-shared-inbox',
      auth: { user: 'payments', password: passwords['payments'] },
    });
    open.push(shared);
    await expect(bindStream(shared, STREAM)).rejects.toThrow();
  }, 30_000);
});

describe('the generated server config', () => {
  it('grants each service exactly the subjects it publishes, and its own consumers', () => {
    const traffic = serviceTraffic(PREFIX);
    const config = natsAuthorizationConfig({ prefix: PREFIX, stream: STREAM, declareStream: false });
    for (const service of NATS_SERVICES) {
      const line = config.split('\n').find((l) => l.includes(`user: "${service}"`)) ?? '';
      const allowed = [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
      const published = allowed.filter((s) => s.startsWith(`${PREFIX}.`));
      expect(published.sort()).toEqual([...traffic[service].publishes].sort());
      expect(allowed.some((s) => s.startsWith('$JS.API.STREAM.CREATE'))).toBe(false);
      const durables = allowed
        .filter((s) => s.startsWith('$JS.API.CONSUMER.INFO.'))
        .map((s) => s.split('.')[5]);
      expect(durables.sort()).toEqual(traffic[service].consumers.map((c) => c.durable).sort());
      // Replies on its own inbox only.
      expect(line).toContain(`subscribe: { allow: [${JSON.stringify(`${inboxPrefixOf(service)}.>`)}] }`);
    }
  });

  it.each(['deploy/nats/authorization.conf', 'deploy/k8s/base/nats-authorization.conf'])(
    'is the file committed as %s (npm run nats:auth writes it)',
    (file) => {
      const committed = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      expect(committed).toBe(productionAuthorization());
    },
  );
});
