/**
 * Writes deploy/nats/authorization.conf: the nats-server `authorization` block giving each service its
 * own user, allowed to publish only its own event subjects and to read only its own durable consumers
 * (packages/messaging/src/permissions.ts, built from the subject builders the services use). The
 * passwords are `$NATS_PASSWORD_<USER>` references the server reads from its environment.
 * `npm run nats:auth`; a test fails when the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import { productionAuthorization } from '@agentpay/messaging';

const target = new URL('../deploy/nats/authorization.conf', import.meta.url);
writeFileSync(target, productionAuthorization());
console.log(`wrote ${target.pathname}`);
