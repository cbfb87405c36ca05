import { of, type Permission, team } from '../identity/index.js';

/**
 * Batch payouts on the merchant dashboard (batches-dashboard.routes.ts): the owner, admin and finance
 * people check a file, request a batch, and approve or reject one; every role reads the requests. The rule a
 * role cannot say is the routes': the approver is a second person, with a current authenticator code.
 */
export const BATCHES_DASHBOARD_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/batches',
    allow: team('owner', 'admin', 'finance', 'viewer'),
    action: 'batch_request.list',
    changes: false,
  },
  {
    method: 'POST',
    url: '/dashboard/api/batches/check',
    allow: team('owner', 'admin', 'finance'),
    action: 'batch_request.check',
    changes: false,
    note: 'every row of a CSV checked; nothing is stored or sent',
  },
  {
    method: 'POST',
    url: '/dashboard/api/batches',
    allow: team('owner', 'admin', 'finance'),
    action: 'batch_request.create',
    changes: true,
    target: () => 'batch_request',
    note: 'only a file without errors; waits for a second person',
  },
  {
    method: 'POST',
    url: '/dashboard/api/batches/:id/approve',
    allow: team('owner', 'admin', 'finance'),
    action: 'batch_request.approve',
    changes: true,
    target: of('batch_request'),
    note: 'never by the requester; with a current authenticator code; creates the batch payout',
  },
  {
    method: 'POST',
    url: '/dashboard/api/batches/:id/reject',
    allow: team('owner', 'admin', 'finance'),
    action: 'batch_request.reject',
    changes: true,
    target: of('batch_request'),
  },
];
