import { merchant, only } from './permission-helpers.js';
import type { Permission } from './permissions.js';

/**
 * The console's ledger pages (docs/console.md "Ledger"): statements read like the balance (whoever reads
 * money: not support); the settlement lists also by admin, who runs settlements.
 */
export const LEDGER_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/statement',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'statement.read',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/statement.csv',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'statement.export',
    changes: false,
    auditRead: true,
    target: merchant,
    note: 'streamed CSV; audited',
  },
  {
    method: 'GET',
    url: '/admin/settlements',
    allow: only('owner', 'admin', 'reconciliation', 'auditor'),
    action: 'settlement.list',
    changes: false,
    note: "each merchant's last settlement",
  },
  {
    method: 'GET',
    url: '/admin/settlements/runs',
    allow: only('owner', 'admin', 'reconciliation', 'auditor'),
    action: 'settlement.runs',
    changes: false,
    note: 'the settlement runs the ledger recorded, newest first',
  },
];
