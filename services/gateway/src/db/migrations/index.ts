import type { Migration } from 'kysely';
import * as merchants from './20261121T0500_merchants.js';
import * as rateLimits from './20261121T0600_rate_limits.js';
import * as cashierLinks from './20261123T2300_cashier_links.js';
import * as retentionIndexes from './20261124T0200_retention_indexes.js';
import * as cashierLinksCreatedIndex from './20261124T0400_cashier_links_created_index.js';
import * as people from './20261127T0100_people.js';
import * as approvals from './20261127T0200_approvals.js';
import * as approvalsRequesterIndex from './20261127T1010_approvals_requester_index.js';
import * as auditActorLabelIndex from './20261127T1130_audit_actor_label_index.js';

import * as merchantControls from './20261128T1000_merchant_controls.js';
import * as merchantSettingRequests from './20261128T1100_merchant_setting_requests.js';
import * as batchRequests from './20261128T2100_batch_requests.js';
/** Every migration of the gateway database, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '20261121T0500_merchants': merchants,
  '20261121T0600_rate_limits': rateLimits,
  '20261123T2300_cashier_links': cashierLinks,
  '20261124T0200_retention_indexes': retentionIndexes,
  '20261124T0400_cashier_links_created_index': cashierLinksCreatedIndex,
  '20261127T0100_people': people,
  '20261127T0200_approvals': approvals,
  '20261127T1010_approvals_requester_index': approvalsRequesterIndex,
  '20261127T1130_audit_actor_label_index': auditActorLabelIndex,
  '20261128T1000_merchant_controls': merchantControls,
  '20261128T1100_merchant_setting_requests': merchantSettingRequests,
  '20261128T2100_batch_requests': batchRequests,
};
