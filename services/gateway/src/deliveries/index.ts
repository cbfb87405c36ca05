// Deliveries: the merchants' callbacks, which the notifier owns, shown and resent on the admin port.

export { DELIVERIES_PERMISSIONS } from './deliveries.permissions.js';
export { registerDeliveriesAdmin } from './deliveries.routes.js';
