import { always } from '../approvals/index.js';
import { merchant, only, type Permission } from '../identity/index.js';

/**
 * The ledger on the admin port (CONTRACT.md section 11) and the console's ledger pages (docs/console.md
 * "Ledger"): balances, adjustments, settlements and the ledger's check; statements read like the balance
 * (whoever reads money: not support); the settlement lists also by admin, who runs settlements.
 */
export const LEDGER_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/merchants/:mchNo/balance',
    allow: only('owner', 'approver', 'reconciliation', 'auditor'),
    action: 'balance.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/merchants/:mchNo/adjustments',
    allow: only('owner', 'reconciliation'),
    action: 'adjustment.create',
    changes: true,
    target: merchant,
    note: 'four eyes',
    fourEyes: always,
  },
  {
    method: 'POST',
    url: '/admin/settlements/run',
    allow: only('owner', 'admin'),
    action: 'settlement.run',
    changes: true,
    target: () => 'settlement',
  },
  {
    method: 'GET',
    url: '/admin/ledger/check',
    allow: only('owner', 'reconciliation', 'auditor'),
    action: 'ledger.check',
    changes: false,
  },

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
