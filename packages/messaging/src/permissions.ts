import { noticeSubject, orderSettledSubject, statusChangedFilter, statusChangedSubject } from './streams.js';

/** The services that connect to NATS, each with a NATS user of its own. */
export const NATS_SERVICES = [
  'payments',
  'transfers',
  'ledger',
  'notifier',
  'upstream-router',
  'compliance',
] as const;
export type NatsService = (typeof NATS_SERVICES)[number];

/** The user of the provision step: the only one allowed to create or change the events stream. */
export const NATS_PROVISION_USER = 'provision';

/** What a service does on the bus: the subjects its outbox publishes and the durable consumers it reads. */
export interface ServiceTraffic {
  publishes: string[];
  consumers: { durable: string; filterSubject: string }[];
}

/** The default durable names (each service's *_CONSUMER config); a deployment that renames one passes its own. */
export const DEFAULT_DURABLES = {
  paymentsNotices: 'payments-notices',
  paymentsSettled: 'payments-settled',
  transfersNotices: 'transfers-notices',
  ledger: 'ledger',
  notifier: 'notifier',
  complianceRules: 'compliance-rules',
};

/**
 * Every service's traffic, built with the same subject builders the services use (streams.ts), so the
 * rights the NATS server grants cannot drift from what the code publishes and consumes.
 */
export function serviceTraffic(
  prefix: string,
  durables: typeof DEFAULT_DURABLES = DEFAULT_DURABLES,
): Record<NatsService, ServiceTraffic> {
  return {
    payments: {
      publishes: [statusChangedSubject(prefix, 'pay')],
      consumers: [
        { durable: durables.paymentsNotices, filterSubject: noticeSubject(prefix, 'payment') },
        { durable: durables.paymentsSettled, filterSubject: orderSettledSubject(prefix) },
      ],
    },
    transfers: {
      publishes: [statusChangedSubject(prefix, 'transfer')],
      consumers: [{ durable: durables.transfersNotices, filterSubject: noticeSubject(prefix, 'payout') }],
    },
    ledger: {
      publishes: [orderSettledSubject(prefix)],
      consumers: [{ durable: durables.ledger, filterSubject: statusChangedFilter(prefix) }],
    },
    notifier: {
      publishes: [],
      consumers: [{ durable: durables.notifier, filterSubject: statusChangedFilter(prefix) }],
    },
    'upstream-router': {
      publishes: [noticeSubject(prefix, 'payment'), noticeSubject(prefix, 'payout')],
      consumers: [],
    },
    // The monitoring rules read status changes; compliance publishes nothing.
    compliance: {
      publishes: [],
      consumers: [{ durable: durables.complianceRules, filterSubject: statusChangedFilter(prefix) }],
    },
  };
}

/**
 * The inbox prefix of a user's connections (`_INBOX_<user>`): request replies and pulled messages come
 * back on `<prefix>.<id>`. Each user may subscribe to its own prefix only, so no service can read the
 * JetStream answers or the pulled events addressed to another (on the shared `_INBOX.>` any could).
 */
export function inboxPrefixOf(user: string): string {
  return `_INBOX_${user}`;
}

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
}

/**
 * The subjects a service may publish and subscribe to: its own event subjects; the JetStream API calls
 * its consumers make on its own durables only (info, create/update, next batch, ack); reading the stream's
 * info; replies on its own inbox (`_INBOX_<service>.>`, inboxPrefixOf). With `declareStream` (development and tests, NATS_PROVISION=true) also
 * creating and updating the events stream; in production only the provision user may.
 */
export function servicePermissions(
  service: string,
  traffic: ServiceTraffic,
  stream: string,
  opts: { declareStream: boolean },
): NatsPermissions {
  const publish = [
    ...traffic.publishes,
    '$JS.API.INFO',
    `$JS.API.STREAM.INFO.${stream}`,
    ...(opts.declareStream ? [`$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.UPDATE.${stream}`] : []),
  ];
  for (const { durable } of traffic.consumers) {
    publish.push(
      `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
      `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    );
  }
  return { publish, subscribe: [`${inboxPrefixOf(service)}.>`] };
}

/** The provision user's rights: the whole JetStream API of the account, replies on its own inbox. */
export const PROVISION_PERMISSIONS: NatsPermissions = {
  publish: ['$JS.API.>'],
  subscribe: [`${inboxPrefixOf(NATS_PROVISION_USER)}.>`],
};

/** The environment variable the NATS server reads a user's password from (`NATS_PASSWORD_<USER>`). */
export function passwordVariable(user: string): string {
  return `NATS_PASSWORD_${user.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The nats-server `authorization` block: one user per service with the rights above and the provision
 * user. Passwords are `$NATS_PASSWORD_<USER>` references the server resolves from its environment (set
 * from a Secret), so the generated file holds no secret and can be committed.
 */
export function natsAuthorizationConfig(opts: {
  prefix: string;
  stream: string;
  declareStream: boolean;
  durables?: typeof DEFAULT_DURABLES;
}): string {
  const traffic = serviceTraffic(opts.prefix, opts.durables);
  const users = [
    ...NATS_SERVICES.map((service) => ({
      user: service,
      permissions: servicePermissions(service, traffic[service], opts.stream, opts),
    })),
    { user: NATS_PROVISION_USER, permissions: PROVISION_PERMISSIONS },
  ];
  const list = (subjects: string[]) => `[${subjects.map((s) => JSON.stringify(s)).join(', ')}]`;
  const lines = users.map(
    ({ user, permissions }) =>
      `    { user: ${JSON.stringify(user)}, password: $${passwordVariable(user)}, permissions: ` +
      `{ publish: { allow: ${list(permissions.publish)} }, subscribe: { allow: ${list(permissions.subscribe)} } } }`,
  );
  return `authorization {\n  users = [\n${lines.join('\n')}\n  ]\n}\n`;
}

/** The production rights (deploy/nats/authorization.conf): default stream, subjects and durables; no service declares the stream. */
export function productionAuthorization(): string {
  return natsAuthorizationConfig({
    prefix: 'agentpay.events',
    stream: 'AGENTPAY_EVENTS',
    declareStream: false,
  });
}
