import {
  type EventConsumer,
  type EventConsumerOptions,
  ensureConsumer,
  startEventConsumer as startConsumer,
} from '@agentpay/messaging';

export { type EventConsumer, ensureConsumer };

/** The notifier's durable consumer: the shared `for await` consumer, its spans named after the notifier. */
export function startEventConsumer(opts: Omit<EventConsumerOptions, 'service'>): EventConsumer {
  return startConsumer({ ...opts, service: 'notifier' });
}
