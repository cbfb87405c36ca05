import { isEntryPoint, runTask } from '@agentpay/config';
import { provisionEventsStream } from '@agentpay/service';

/**
 * The events stream's provision step (`dist/nats-provision.js` in this image, the nats-provision Job in
 * deploy/k8s): declares the stream with the provision user's credentials, before the services start.
 * It lives in the payments image only because every deployment runs that image; it reads none of the
 * payments service's settings.
 */
if (isEntryPoint(import.meta.url)) {
  runTask('nats provision', async (env) => {
    process.stdout.write(`${await provisionEventsStream(env)}\n`);
  });
}
