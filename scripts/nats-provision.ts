/**
 * The one privileged step of the events bus, from a checkout: declares the events stream with the
 * provision user's credentials (packages/service/src/nats-provision.ts; the nats-provision Job in
 * deploy/k8s runs the same code from the payments image). `npm run nats:provision`, configured like a
 * service: NATS_URL, NATS_CREDS_FILE or NATS_USER/NATS_PASSWORD, NATS_TLS_CA_FILE, EVENTS_*.
 */
import { runTask } from '@agentpay/config';
import { provisionEventsStream } from '@agentpay/service';

runTask('nats provision', async (env) => {
  console.log(await provisionEventsStream(env));
});
