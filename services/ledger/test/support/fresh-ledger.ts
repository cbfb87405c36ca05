import { createLogger } from '@agentpay/logger';
import type { Clock } from '@agentpay/runtime';
import { migratedTestDatabase } from '@agentpay/testing';
import type { Kysely } from 'kysely';
import { migrations } from '../../src/db/migrations/index.js';
import type { Database } from '../../src/db/schema.js';
import { createLedgerService, type LedgerService } from '../../src/ledger/ledger.service.js';
import { createSettlementCalendar, defaultHolidays } from '../../src/settlement/calendar.js';
import { type Settlement, startSettlementSweep } from '../../src/settlement/settlement.sweep.js';

export const TIME_ZONE = 'America/Mexico_City';
export const SETTLED_SUBJECT = 'test.ledger.order_settled';

export interface FreshLedger {
  db: Kysely<Database>;
  ledger: LedgerService;
  settlement: Settlement;
  /** Another replica's use cases on the same database. */
  replica(opts?: { maxBatch?: number; clock?: Clock }): LedgerService;
  drop(): Promise<void>;
}

/** The ledger's use cases on a fresh migrated database, without gRPC or NATS. */
export async function freshLedger(label: string): Promise<FreshLedger> {
  const { db, drop } = await migratedTestDatabase<Database>(label, migrations);
  const logger = createLogger({ service: 'ledger-test', level: 'silent' });
  const calendar = createSettlementCalendar({ holidays: defaultHolidays(), timeZone: TIME_ZONE });
  const replicas: LedgerService[] = [];
  const replica = (opts: { maxBatch?: number; clock?: Clock } = {}) => {
    const service = createLedgerService({
      db,
      logger,
      calendar,
      settledSubject: SETTLED_SUBJECT,
      maxBatch: opts.maxBatch ?? 256,
      timeZone: TIME_ZONE,
      ...(opts.clock && { clock: opts.clock }),
    });
    replicas.push(service);
    return service;
  };
  const ledger = replica();
  const settlement = startSettlementSweep({ db, logger, ledger, intervalMs: 0, batch: 7 });
  return {
    db,
    ledger,
    settlement,
    replica,
    drop: async () => {
      await settlement.stop();
      await Promise.all(replicas.map((r) => r.drain()));
      await drop();
    },
  };
}
