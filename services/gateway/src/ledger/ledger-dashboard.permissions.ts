import { type Permission, team } from '../identity/index.js';

/**
 * The dashboard's balance and statement, of the signed-in person's merchant: every role of the team reads
 * them (viewer included: reading is what a viewer does); the CSV export is finance's, and the owner's and
 * admin's (CONTRACT.md section 17: finance "balances, statements, exports").
 */
export const LEDGER_DASHBOARD_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/balance',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'balance.read',
    changes: false,
  },
  {
    method: 'GET',
    url: '/dashboard/api/statement',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'statement.read',
    changes: false,
  },
  {
    method: 'GET',
    url: '/dashboard/api/statement.csv',
    allow: team('owner', 'admin', 'finance'),
    action: 'statement.export',
    changes: false,
    auditRead: true,
    target: () => 'statement',
    note: 'streamed CSV; audited',
  },
];
