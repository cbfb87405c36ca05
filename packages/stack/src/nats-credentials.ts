import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  NATS_PROVISION_USER,
  NATS_SERVICES,
  type NatsService,
  natsAuthorizationConfig,
  passwordVariable,
} from '@agentpay/messaging';

/** The events stream and subject prefix of a stack (startStack gives each database prefix its own). */
export interface EventsNaming {
  stream: string;
  subjectPrefix: string;
}

/** The stream and subjects of the stack whose databases are named `<prefix>_<service>`. */
export function eventsNaming(databasePrefix = 'agentpay'): EventsNaming {
  return databasePrefix === 'agentpay'
    ? { stream: 'AGENTPAY_EVENTS', subjectPrefix: 'agentpay.events' }
    : { stream: `${databasePrefix.toUpperCase()}_EVENTS`, subjectPrefix: `${databasePrefix}.events` };
}

/**
 * One user per service and the provision user, with fresh random passwords, and the nats-server config
 * that grants them the production rights (packages/messaging/src/permissions.ts: no service may declare
 * the stream) for one stack's stream and subjects. What a deployment sets up, on loopback.
 */
export interface NatsCredentials {
  naming: EventsNaming;
  /** Each user's password, by user name (the service names and `provision`). */
  passwords: Record<NatsService | typeof NATS_PROVISION_USER, string>;
  /** The server config file holding the `authorization` block (no password in it). */
  configFile: string;
  /** The server's environment: `NATS_PASSWORD_<USER>` for each user, quoted as the config parser wants. */
  serverEnv: Record<string, string>;
  /** A service's client settings: its user and password, and NATS_PROVISION=false. */
  serviceEnv(service: NatsService): Record<string, string>;
  /** The provision user's client settings (for the provision step). */
  provisionEnv(): Record<string, string>;
  /** Removes the config file. */
  remove(): void;
}

export function natsCredentials(naming: EventsNaming): NatsCredentials {
  const dir = mkdtempSync(join(tmpdir(), 'agentpay-nats-auth-'));
  const users = [...NATS_SERVICES, NATS_PROVISION_USER] as const;
  const passwords = Object.fromEntries(
    users.map((user) => [user, randomBytes(18).toString('hex')]),
  ) as NatsCredentials['passwords'];
  const configFile = join(dir, 'authorization.conf');
  writeFileSync(
    configFile,
    natsAuthorizationConfig({ prefix: naming.subjectPrefix, stream: naming.stream, declareStream: false }),
    { mode: 0o600 },
  );
  return {
    naming,
    passwords,
    configFile,
    serverEnv: Object.fromEntries(users.map((user) => [passwordVariable(user), `"${passwords[user]}"`])),
    serviceEnv: (service) => ({
      NATS_USER: service,
      NATS_PASSWORD: passwords[service],
      NATS_PROVISION: 'false',
    }),
    provisionEnv: () => ({ NATS_USER: NATS_PROVISION_USER, NATS_PASSWORD: passwords[NATS_PROVISION_USER] }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
