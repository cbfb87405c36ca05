import { only } from './permission-helpers.js';
import type { Permission } from './permissions.js';

/** Reconciliation on the admin port (CONTRACT.md sections 14 and 18): what the console's workbench reads. */
export const RECONCILIATION_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/reconciliations',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'reconciliation.list',
    changes: false,
    note: 'runs per day and route, newest first',
  },
];
