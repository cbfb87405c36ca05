import type { Migration } from 'kysely';
import * as outbox from './20261121T0500_outbox.js';
import * as payOrders from './20261122T0900_pay_orders.js';

/** Every migration of the payments database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_outbox': outbox,
  '20261122T0900_pay_orders': payOrders,
};
