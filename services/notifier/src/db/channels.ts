/**
 * LISTEN/NOTIFY channel signalled whenever a delivery becomes due now (insert or resend). The deliveries
 * migration's trigger and the runtime (the worker listens, a resend notifies) name it from here.
 */
export const DELIVERIES_CHANNEL = 'notifier_deliveries';
