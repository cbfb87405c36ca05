import type { Migration } from 'kysely';
import * as outbox from './20261121T0500_outbox.js';
import * as transfers from './20261122T1000_transfers.js';
import * as fingerprint from './20261123T0900_fingerprint.js';
import * as submissionPhases from './20261123T2330_submission_phases.js';
import * as retentionIndexes from './20261124T0200_retention_indexes.js';
import * as progressCheckIndex from './20261124T0600_progress_check_index.js';
import * as claveRastreo from './20261126T2300_clave_rastreo.js';
import * as transferSearch from './20261127T0300_transfer_search.js';
import * as payees from './20261128T1000_payees.js';
import * as refunds from './20261128T2100_refunds.js';
import * as transferBatches from './20261128T2100_transfer_batches.js';
import * as heldSubmissions from './20261128T2200_held_submissions.js';
import * as submissionStates from './20261128T2300_submission_states.js';

/** Every migration of the transfers database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_outbox': outbox,
  '20261122T1000_transfers': transfers,
  '20261123T0900_fingerprint': fingerprint,
  '20261123T2330_submission_phases': submissionPhases,
  '20261124T0200_retention_indexes': retentionIndexes,
  '20261124T0600_progress_check_index': progressCheckIndex,
  '20261126T2300_clave_rastreo': claveRastreo,
  '20261127T0300_transfer_search': transferSearch,
  '20261128T1000_payees': payees,
  '20261128T2100_refunds': refunds,
  '20261128T2100_transfer_batches': transferBatches,
  '20261128T2200_held_submissions': heldSubmissions,
  '20261128T2300_submission_states': submissionStates,
};
