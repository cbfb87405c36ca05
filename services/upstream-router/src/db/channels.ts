/**
 * NOTIFY channel on which every change to routes or their merchants is announced, to every replica. The
 * routes migration's trigger and the runtime (each replica's route cache listens) name it from here.
 */
export const ROUTES_CHANNEL = 'agentpay_routes_changed';
