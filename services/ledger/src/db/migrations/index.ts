import type { Migration } from 'kysely';
import * as outbox from './20261123T2300_outbox.js';
import * as ledger from './20261123T2310_ledger.js';
import * as observedOrders from './20261124T0100_observed_orders.js';
import * as reconciliation from './20261124T0200_reconciliation.js';
import * as retentionIndexes from './20261124T0300_retention_indexes.js';
import * as returnedDeposits from './20261126T2330_returned_deposits.js';
import * as operatorOrigins from './20261127T0900_operator_origins.js';
import * as reconRunsIndexes from './20261127T1010_recon_runs_indexes.js';
import * as orderEntriesIndexes from './20261127T1200_order_entries_indexes.js';
import * as settlementsIndex from './20261127T1300_settlements_index.js';
import * as settlementRuns from './20261127T1400_settlement_runs.js';
import * as payoutUsage from './20261128T1000_payout_usage.js';

/** Every migration of the ledger database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261123T2300_outbox': outbox,
  '20261123T2310_ledger': ledger,
  '20261124T0100_observed_orders': observedOrders,
  '20261124T0200_reconciliation': reconciliation,
  '20261124T0300_retention_indexes': retentionIndexes,
  '20261126T2330_returned_deposits': returnedDeposits,
  '20261127T0900_operator_origins': operatorOrigins,
  '20261127T1010_recon_runs_indexes': reconRunsIndexes,
  '20261127T1200_order_entries_indexes': orderEntriesIndexes,
  '20261127T1300_settlements_index': settlementsIndex,
  '20261127T1400_settlement_runs': settlementRuns,
  '20261128T1000_payout_usage': payoutUsage,
};
