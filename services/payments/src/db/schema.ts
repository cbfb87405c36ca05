import type { OutboxTable } from '@agentpay/messaging';

export interface Database {
  outbox: OutboxTable;
}
