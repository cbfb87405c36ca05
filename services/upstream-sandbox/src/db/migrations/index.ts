import type { Migration } from 'kysely';
import * as channel from './20261121T0600_channel.js';
import * as statements from './20261124T0200_statements.js';
import * as retentionIndexes from './20261124T0300_retention_indexes.js';
import * as stp from './20261126T2200_stp.js';
import * as depositPayer from './20261128T2100_deposit_payer.js';

/** Every migration of the sandbox database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0600_channel': channel,
  '20261124T0200_statements': statements,
  '20261124T0300_retention_indexes': retentionIndexes,
  '20261126T2200_stp': stp,
  '20261128T2100_deposit_payer': depositPayer,
};
