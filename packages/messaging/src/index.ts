export { DependencyUnavailableError } from '@agentpay/db';
export { type ConnectNatsOptions, checkNats, connectNats } from './nats.js';
export {
  createOutboxTable,
  enqueueOutbox,
  OUTBOX_CHANNEL,
  type OutboxEvent,
  type OutboxTable,
  purgePublishedOutbox,
} from './outbox.js';
export { type OutboxRelay, type OutboxRelayOptions, startOutboxRelay } from './outbox-relay.js';
export {
  DUPLICATE_WINDOW_MS,
  EVENTS_STREAM,
  EVENTS_SUBJECTS,
  ensureStream,
  type StreamSpec,
} from './streams.js';
