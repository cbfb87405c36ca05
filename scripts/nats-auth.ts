/**
 * Writes the nats-server `authorization` block giving each service its own user, allowed to publish only
 * its own event subjects, to read only its own durable consumers and its own reply inbox
 * (packages/messaging/src/permissions.ts, built from the subject builders the services use). The
 * passwords are `$NATS_PASSWORD_<USER>` references the server reads from its environment. Two copies of
 * the same text: deploy/nats/authorization.conf (for a NATS server configured from files) and
 * deploy/k8s/base/nats-authorization.conf (the `agentpay-nats-authorization` ConfigMap).
 * `npm run nats:auth`; a test fails when either committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { productionAuthorization } from '@agentpay/messaging';

const AUTHORIZATION_FILES = [
  '../deploy/nats/authorization.conf',
  '../deploy/k8s/base/nats-authorization.conf',
];

for (const file of AUTHORIZATION_FILES) {
  const target = new URL(file, import.meta.url);
  writeFileSync(target, productionAuthorization());
  console.log(`wrote ${target.pathname}`);
}
