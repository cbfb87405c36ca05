import { of, only, type Permission } from '../identity/index.js';

/** Four eyes on the admin port (CONTRACT.md section 17): the approvals of the admin API's changes. */
export const APPROVALS_PERMISSIONS: readonly Permission[] = [
  // Four eyes (approvals/): who asked sees their requests; approvers see and decide what waits for them.
  {
    method: 'GET',
    url: '/admin/approvals',
    allow: only('owner', 'admin', 'approver', 'reconciliation', 'compliance', 'auditor'),
    action: 'approval.list',
    changes: false,
    note: 'what waits for me, what I asked for',
  },
  {
    method: 'GET',
    url: '/admin/approvals/:id',
    allow: only('owner', 'admin', 'approver', 'reconciliation', 'compliance', 'auditor'),
    action: 'approval.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/approvals/:id/approve',
    allow: only('owner', 'approver', 'compliance'),
    action: 'approval.approve',
    changes: true,
    target: of('approval'),
    note: "never your own request; compliance approves only the compliance desk's operations",
  },
  {
    method: 'POST',
    url: '/admin/approvals/:id/reject',
    allow: only('owner', 'approver', 'admin', 'reconciliation', 'compliance'),
    action: 'approval.reject',
    changes: true,
    target: of('approval'),
    note: 'approvers; or who asked, withdrawing it',
  },
];
