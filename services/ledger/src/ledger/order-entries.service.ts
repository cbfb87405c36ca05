import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';
import { LedgerError } from './ledger.errors.js';
import { entriesCiting } from './order-entries.repository.js';

/** ListOrderEntries: what the books say about one order or transfer (an order has a handful of entries). */
export function createOrderEntries(deps: { db: Kysely<Database> }) {
  return {
    of(orderNo: string, transferNo: string): Promise<EntryRow[]> {
      if (!orderNo === !transferNo) {
        throw new LedgerError('INVALID_REQUEST', 'order_no or transfer_no (exactly one)');
      }
      return entriesCiting(deps.db, orderNo ? { orderNo } : { transferNo });
    },
  };
}

export type OrderEntries = ReturnType<typeof createOrderEntries>;
