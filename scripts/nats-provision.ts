/**
 * The one privileged step of the events bus: declares the events stream (its subjects, age, replicas)
 * with the provision user's credentials, so the services run with NATS_PROVISION=false and never hold
 * the right to create, change or delete it. Each service still declares its own durable consumers,
 * the only JetStream objects its user may create. Idempotent: run it at every deploy, before the
 * services (the nats-provision Job in deploy/k8s). `npm run nats:provision`, configured like a
 * service: NATS_URL, NATS_CREDS_FILE or NATS_USER/NATS_PASSWORD, NATS_TLS_CA_FILE, EVENTS_*.
 */
import { DEFAULT_NATS_URL, eventsEnv, parseConfig, z } from '@agentpay/config';
import { connectNats, ensureStream, withJetStreamPatience } from '@agentpay/messaging';

const config = parseConfig(
  z.object({ NATS_URL: z.string().default(DEFAULT_NATS_URL), ...eventsEnv }),
  process.env,
);
const nc = await connectNats(config.NATS_URL, {
  name: 'nats-provision',
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
  console.log(
    `stream ${info.config.name}: subjects ${info.config.subjects?.join(', ')}, ${info.config.num_replicas} replica(s)`,
  );
} finally {
  await nc.close();
}
