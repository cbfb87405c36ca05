import { MERCHANT_ROLES, of, type Permission, team } from '../identity/index.js';

/** The merchant's own orders and transfers in the dashboard (orders-dashboard.routes.ts). */
export const ORDERS_DASHBOARD_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/dashboard/api/orders',
    allow: MERCHANT_ROLES,
    action: 'order.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/dashboard/api/orders/:orderNo',
    allow: MERCHANT_ROLES,
    action: 'order.read',
    changes: false,
    note: 'with its timeline; another merchant’s order is 404',
  },
  {
    method: 'GET',
    url: '/dashboard/api/transfers',
    allow: MERCHANT_ROLES,
    action: 'transfer.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/dashboard/api/transfers/:transferNo',
    allow: MERCHANT_ROLES,
    action: 'transfer.read',
    changes: false,
  },
  {
    method: 'POST',
    url: '/dashboard/api/orders/:orderNo/refunds',
    allow: team('owner', 'admin', 'finance'),
    action: 'order.refund',
    changes: true,
    target: of('order', 'orderNo'),
    note: 'a refund of a paid order to its payer (CONTRACT section 21)',
  },
  {
    method: 'POST',
    url: '/dashboard/api/deliveries/:id/resend',
    allow: team('owner', 'admin'),
    action: 'delivery.resend',
    changes: true,
    target: of('delivery'),
    note: "one of the merchant's own callbacks",
  },
];
