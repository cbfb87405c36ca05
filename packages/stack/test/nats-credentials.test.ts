import { baseEnv, DEFAULT_NATS_URL, eventsEnv, z } from '@agentpay/config';
import {
  bindStream,
  connectNats,
  inboxPrefixOf,
  NATS_SERVICES,
  statusChangedSubject,
} from '@agentpay/messaging';
import { bootstrapService, provisionEventsStream } from '@agentpay/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsNaming, type NatsServer, natsCredentials, startNatsServer, startStack } from '../src/index.js';

// The fault runs' NATS: a private nats-server that requires each service's own credentials, as production.
const naming = eventsNaming('stack_nats_auth');
let server: NatsServer;

beforeAll(async () => {
  server = await startNatsServer({ credentials: naming });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

function asService(service: (typeof NATS_SERVICES)[number]) {
  const env = server.credentials!.serviceEnv(service);
  return connectNats(server.url, {
    name: `stack-test-${service}`,
    auth: { user: env['NATS_USER']!, password: env['NATS_PASSWORD']! },
    inboxOwner: env['NATS_USER']!,
  });
}

describe('a private nats-server with credentials', () => {
  it('refuses an anonymous client and a wrong password, and runs every service with NATS_PROVISION=false', async () => {
    await expect(connectNats(server.url, { name: 'anonymous' })).rejects.toThrow(/Authorization Violation/i);
    await expect(
      connectNats(server.url, { name: 'wrong', auth: { user: 'payments', password: 'not-it' } }),
    ).rejects.toThrow(/Authorization Violation/i);
    for (const service of NATS_SERVICES) {
      expect(server.credentials!.serviceEnv(service)).toMatchObject({
        NATS_USER: service,
        NATS_PROVISION: 'false',
      });
    }
  });

  it('lets the provision step declare the stream, then every service bind to it as its own user', async () => {
    const before = await asService('payments');
    await expect(bindStream(before, naming.stream)).rejects.toThrow(/NATS_PROVISION=false/);
    await before.close();
    const line = await provisionEventsStream({
      NATS_URL: server.url,
      EVENTS_STREAM: naming.stream,
      EVENTS_SUBJECT_PREFIX: naming.subjectPrefix,
      ...server.credentials!.provisionEnv(),
    });
    expect(line).toContain(`stream ${naming.stream}: subjects ${naming.subjectPrefix}.>`);
    for (const service of NATS_SERVICES) {
      const nc = await asService(service);
      expect((await bindStream(nc, naming.stream)).config.name, service).toBe(naming.stream);
      await nc.close();
    }
  }, 30_000);

  it('keeps requiring the credentials after a crash and restart on the same port', async () => {
    await server.restart({ downMs: 100 });
    await expect(connectNats(server.url, { name: 'anonymous' })).rejects.toThrow(/Authorization Violation/i);
    const nc = await asService('payments');
    const errors: string[] = [];
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') errors.push(String(s.error));
    })();
    // Its own subject is accepted; another service's is refused by the server.
    nc.publish(statusChangedSubject(naming.subjectPrefix, 'pay'), '{}');
    nc.publish(statusChangedSubject(naming.subjectPrefix, 'transfer'), '{}');
    nc.subscribe(`${inboxPrefixOf('transfers')}.>`);
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.filter((e) => e.includes('Permissions Violation')).length).toBe(2);
    expect(errors.some((e) => e.includes(statusChangedSubject(naming.subjectPrefix, 'transfer')))).toBe(true);
    await nc.close();
  }, 30_000);

  it('fails with a message naming NATS_SERVER_BIN when nats-server is not installed, rather than skip', async () => {
    await expect(
      startNatsServer({ binary: '/nonexistent/nats-server', credentials: naming }),
    ).rejects.toThrow(/nats-server is not installed at \/nonexistent\/nats-server: .*NATS_SERVER_BIN/);
  });

  it('refuses a stack whose stream the credentials do not grant', async () => {
    const other = natsCredentials(eventsNaming('some_other_stack'));
    try {
      await expect(
        startStack({
          postgresUrl: 'postgres://127.0.0.1:1/none',
          natsUrl: server.url,
          databasePrefix: 'stack_nats_auth_x',
          natsCredentials: other,
          output: 'silent',
        }),
      ).rejects.toThrow(/the NATS credentials grant SOME_OTHER_STACK_EVENTS/);
    } finally {
      other.remove();
    }
  });

  it('refuses a service started without its credentials, or with another’s, and lets it in with its own', async () => {
    // The start path every service takes (bootstrapService().events()), as payments.
    const schema = z.object({ ...baseEnv, NATS_URL: z.string().default(DEFAULT_NATS_URL), ...eventsEnv });
    const start = async (extra: Record<string, string>) => {
      const svc = await bootstrapService({
        name: 'payments',
        schema,
        env: {
          LOG_LEVEL: 'silent',
          NATS_URL: server.url,
          EVENTS_STREAM: naming.stream,
          EVENTS_SUBJECT_PREFIX: naming.subjectPrefix,
          ...extra,
        },
        tracing: false,
      });
      try {
        await svc.events();
      } finally {
        await svc.stop();
      }
    };
    await expect(start({})).rejects.toThrow(
      /NATS refused the connection .*check NATS_CREDS_FILE or NATS_USER\/NATS_PASSWORD/,
    );
    const own = server.credentials!.serviceEnv('payments');
    const transfers = server.credentials!.serviceEnv('transfers');
    await expect(start({ ...own, NATS_PASSWORD: transfers['NATS_PASSWORD']! })).rejects.toThrow(
      /NATS refused the connection/,
    );
    await expect(start(own)).resolves.toBeUndefined();
  }, 60_000);
});
