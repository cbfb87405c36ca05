import { ALL, only } from './permission-helpers.js';
import type { Permission } from './permissions.js';

/** The console's home figures and callback backlog (admin/figures-admin.ts): reads only. */
export const FIGURES_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/figures',
    allow: ALL,
    action: 'figures.read',
    changes: false,
    note: "a day's pay-ins and payouts per route",
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
