export { DependencyUnavailableError } from '@agentpay/db';
export type { NatsConnection } from '@nats-io/transport-node';
export {
  type EventConsumer,
  type EventConsumerOptions,
  ensureConsumer,
  startEventConsumer,
  type Verdict,
} from './consumer.js';
export { type ConnectNatsOptions, checkNats, connectNats, type NatsAuth, natsAuthOptions } from './nats.js';
export {
  MAX_UNKNOWN_TARGET_DELIVERIES,
  type NoticeConsumerOptions,
  type NoticeFailure,
  startNoticeConsumer,
} from './notice-consumer.js';
export {
  createOutboxTable,
  enqueueEvent,
  enqueueEvents,
  OUTBOX_CHANNEL,
  type OutboxEvent,
  type OutboxTable,
  type PlatformEvent,
} from './outbox.js';
export { type OutboxRelay, type OutboxRelayOptions, startOutboxRelay } from './outbox-relay.js';
export {
  DEFAULT_DURABLES,
  inboxPrefixOf,
  NATS_PROVISION_USER,
  NATS_SERVICES,
  type NatsPermissions,
  type NatsService,
  natsAuthorizationConfig,
  PROVISION_PERMISSIONS,
  passwordVariable,
  productionAuthorization,
  type ServiceTraffic,
  servicePermissions,
  serviceTraffic,
} from './permissions.js';
export {
  ackedThrough,
  bindStream,
  DUPLICATE_WINDOW_MS,
  deleteStream,
  EVENTS_STREAM,
  EVENTS_SUBJECTS,
  ensureStream,
  isStatusChangedSubject,
  isTransientJetStreamError,
  type NoticeKind,
  noticeSubject,
  type OrderKind,
  orderSettledSubject,
  publishEvent,
  type StreamSpec,
  statusChangedFilter,
  statusChangedSubject,
  withJetStreamPatience,
} from './streams.js';
