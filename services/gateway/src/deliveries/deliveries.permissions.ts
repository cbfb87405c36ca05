import { of, only, type Permission } from '../identity/index.js';

/** Callbacks on the admin port: the notifier's deliveries of an order, the backlog and failing endpoints. */
export const DELIVERIES_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/deliveries',
    allow: only('owner', 'support', 'auditor'),
    action: 'delivery.list',
    changes: false,
    note: 'callbacks of an order (the notifier)',
  },
  {
    method: 'GET',
    url: '/admin/deliveries/:id',
    allow: only('owner', 'support', 'auditor'),
    action: 'delivery.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/deliveries/:id/resend',
    allow: only('owner', 'support'),
    action: 'delivery.resend',
    changes: true,
    target: of('delivery'),
  },
  {
    method: 'GET',
    url: '/admin/callbacks/backlog',
    allow: only('owner', 'support', 'auditor'),
    action: 'callback.backlog',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/callbacks/failing-endpoints',
    allow: only('owner', 'support', 'auditor'),
    action: 'callback.failing_endpoints',
    changes: false,
  },
];
