import type { Migration } from 'kysely';
import * as deliveries from './20261122T0600_deliveries.js';
import * as endpointDue from './20261122T0700_deliveries_endpoint_due.js';
import * as retentionIndexes from './20261124T0200_retention_indexes.js';
import * as supersededByIndex from './20261124T0300_superseded_by_index.js';
import * as deliveriesFinishedIndex from './20261124T0400_deliveries_finished_index.js';
import * as dropDeliveriesDueIdx from './20261124T0500_drop_deliveries_due_idx.js';
import * as deliveriesFailingIndex from './20261127T0200_deliveries_failing_index.js';
import * as deliveriesGaveUpIndex from './20261127T1100_deliveries_gave_up_index.js';

/** Every migration of the notifier database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261122T0600_deliveries': deliveries,
  '20261122T0700_deliveries_endpoint_due': endpointDue,
  '20261124T0200_retention_indexes': retentionIndexes,
  '20261124T0300_superseded_by_index': supersededByIndex,
  '20261124T0400_deliveries_finished_index': deliveriesFinishedIndex,
  '20261124T0500_drop_deliveries_due_idx': dropDeliveriesDueIdx,
  '20261127T0200_deliveries_failing_index': deliveriesFailingIndex,
  '20261127T1100_deliveries_gave_up_index': deliveriesGaveUpIndex,
};
