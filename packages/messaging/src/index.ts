export { DependencyUnavailableError } from '@agentpay/db';
export type { NatsConnection } from '@nats-io/transport-node';
export {
  type EventConsumer,
  type EventConsumerOptions,
  ensureConsumer,
  startEventConsumer,
  type Verdict,
} from './consumer.js';
export { type ConnectNatsOptions, checkNats, connectNats } from './nats.js';
export {
  MAX_UNKNOWN_TARGET_DELIVERIES,
  type NoticeConsumerOptions,
  type NoticeFailure,
  startNoticeConsumer,
} from './notice-consumer.js';
export {
  createOutboxTable,
  enqueueEvent,
  enqueueOutbox,
  OUTBOX_CHANNEL,
  type OutboxEvent,
  type OutboxTable,
} from './outbox.js';
export { type OutboxRelay, type OutboxRelayOptions, startOutboxRelay } from './outbox-relay.js';
export {
  ackedThrough,
  DUPLICATE_WINDOW_MS,
  deleteStream,
  EVENTS_STREAM,
  EVENTS_SUBJECTS,
  ensureStream,
  isTransientJetStreamError,
  type NoticeKind,
  noticeSubject,
  type OrderKind,
  publishEvent,
  type StreamSpec,
  statusChangedSubject,
  withJetStreamPatience,
} from './streams.js';
