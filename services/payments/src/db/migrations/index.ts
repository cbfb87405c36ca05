import type { Migration } from 'kysely';
import * as outbox from './20261121T0500_outbox.js';
import * as payOrders from './20261122T0900_pay_orders.js';
import * as retentionIndexes from './20261124T0200_retention_indexes.js';
import * as claveRastreo from './20261126T2300_clave_rastreo.js';
import * as orderSearch from './20261127T0300_order_search.js';
import * as orderSearchOpened from './20261128T1700_order_search_opened.js';
import * as payer from './20261128T2100_payer.js';

/** Every migration of the payments database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_outbox': outbox,
  '20261122T0900_pay_orders': payOrders,
  '20261124T0200_retention_indexes': retentionIndexes,
  '20261126T2300_clave_rastreo': claveRastreo,
  '20261127T0300_order_search': orderSearch,
  '20261128T1700_order_search_opened': orderSearchOpened,
  '20261128T2100_payer': payer,
};
