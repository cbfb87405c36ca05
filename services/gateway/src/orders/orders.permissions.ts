import { ALL, of, only, type Permission } from '../identity/index.js';

/** Orders and transfers on the admin port (admin/orders-admin.ts): every operator reads; sync changes. */
export const ORDERS_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/orders',
    allow: ALL,
    action: 'order.list',
    changes: false,
    note: 'search by number, merchant number, claveRastreo, CLABE; status and time',
  },
  {
    method: 'GET',
    url: '/admin/orders/:orderNo',
    allow: ALL,
    action: 'order.read',
    changes: false,
    note: 'with its timeline',
  },
  {
    method: 'POST',
    url: '/admin/orders/:orderNo/sync',
    allow: only('owner', 'admin', 'support'),
    action: 'order.sync',
    changes: true,
    target: of('order', 'orderNo'),
    note: 'asks the channel',
  },
  {
    method: 'GET',
    url: '/admin/transfers',
    allow: ALL,
    action: 'transfer.list',
    changes: false,
    note: 'search by number, merchant number, claveRastreo, payee account; status and time',
  },
  {
    method: 'GET',
    url: '/admin/transfers/:transferNo',
    allow: ALL,
    action: 'transfer.read',
    changes: false,
    note: 'with its timeline',
  },
];
