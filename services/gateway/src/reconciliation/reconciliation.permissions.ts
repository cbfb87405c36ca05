import { resolutionNeedsFourEyes } from '../approvals/index.js';
import { of, only, type Permission } from '../identity/index.js';

/** Reconciliation on the admin port (CONTRACT.md sections 14 and 18): what the console's workbench reads. */
export const RECONCILIATION_PERMISSIONS: readonly Permission[] = [
  {
    method: 'POST',
    url: '/admin/reconciliations',
    allow: only('owner', 'reconciliation'),
    action: 'reconciliation.run',
    changes: true,
    target: () => 'reconciliation',
  },
  {
    method: 'GET',
    url: '/admin/discrepancies',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'discrepancy.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/discrepancies/:id',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'discrepancy.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/discrepancies/:id/resolve',
    allow: only('owner', 'reconciliation'),
    action: 'discrepancy.resolve',
    changes: true,
    target: of('discrepancy'),
    note: 'credit, return: four eyes',
    fourEyes: resolutionNeedsFourEyes,
  },
  {
    method: 'GET',
    url: '/admin/reconciliations',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'reconciliation.list',
    changes: false,
    note: 'runs per day and route, newest first',
  },
];
