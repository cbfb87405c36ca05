import { DEFAULT_NATS_URL, eventsEnv, parseConfig, z } from '@agentpay/config';
import { connectNats, ensureStream, NATS_PROVISION_USER, withJetStreamPatience } from '@agentpay/messaging';

/**
 * What the provision step reads: where NATS is, the provision user's credentials (NATS_USER/NATS_PASSWORD
 * or NATS_CREDS_FILE), the server's CA (NATS_TLS_CA_FILE) and the events stream's settings (EVENTS_*).
 */
export const natsProvisionEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  NATS_URL: z.string().default(DEFAULT_NATS_URL),
  ...eventsEnv,
});

/**
 * The one privileged step of the events bus: declares the events stream (its subjects, age, replicas)
 * with the provision user's credentials, so the services run with NATS_PROVISION=false and never hold the
 * right to create, change or delete it. Idempotent: run it at every deploy, before the services (the
 * nats-provision Job in deploy/k8s runs `node dist/nats-provision.js` from the payments image;
 * `npm run nats:provision` from a checkout). Returns a line saying what the stream is now.
 */
export async function provisionEventsStream(env: NodeJS.ProcessEnv): Promise<string> {
  const config = parseConfig(natsProvisionEnv, env);
  const nc = await connectNats(config.NATS_URL, {
    name: 'nats-provision',
    inboxOwner: NATS_PROVISION_USER,
    auth: {
      ...(config.NATS_CREDS_FILE && { credsFile: config.NATS_CREDS_FILE }),
      ...(config.NATS_USER && { user: config.NATS_USER }),
      ...(config.NATS_PASSWORD && { password: config.NATS_PASSWORD }),
      ...(config.NATS_TLS_CA_FILE && { tlsCaFile: config.NATS_TLS_CA_FILE }),
    },
  });
  try {
    const info = await withJetStreamPatience('declaring the events stream', () =>
      ensureStream(nc, {
        name: config.EVENTS_STREAM,
        subjects: [`${config.EVENTS_SUBJECT_PREFIX}.>`],
        maxAgeMs: Math.round(config.EVENTS_MAX_AGE_DAYS * 86_400_000),
        replicas: config.EVENTS_STREAM_REPLICAS,
      }),
    );
    return `stream ${info.config.name}: subjects ${info.config.subjects?.join(', ')}, ${info.config.num_replicas} replica(s)`;
  } finally {
    await nc.close();
  }
}
