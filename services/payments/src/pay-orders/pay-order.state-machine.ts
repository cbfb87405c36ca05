// The payment order state machine of docs/merchant-api.md "Statuses", as data. Every status change goes through
// `changeStatus` (pay-order.transition.ts), which only moves an order along a row of this table; the
// database refuses any other pair as well (trigger of the pay_orders migration).

export const PAY_STATUSES = ['wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout'] as const;
export type PayStatus = (typeof PAY_STATUSES)[number];

/**
 * Who makes a change, and on what grounds:
 * - `merchant`: a close or cancel request;
 * - `upstream`: evidence from the channel (a notice, a sync, the answer to a close or an expiry check);
 * - `expiry`: expiredTime passed and upstream reported no payment.
 */
export const CAUSES = ['merchant', 'upstream', 'expiry'] as const;
export type Cause = (typeof CAUSES)[number];

export interface Transition {
  from: PayStatus;
  to: PayStatus;
  causes: readonly Cause[];
}

/** Every allowed transition; anything absent is forbidden. */
export const TRANSITIONS: readonly Transition[] = [
  { from: 'wait', to: 'progress', causes: ['upstream'] },
  { from: 'wait', to: 'success', causes: ['upstream'] },
  { from: 'progress', to: 'success', causes: ['upstream'] },
  // Upstream may close an account on its own; a merchant closes with useCancel false.
  { from: 'wait', to: 'close', causes: ['merchant', 'upstream'] },
  { from: 'progress', to: 'close', causes: ['merchant', 'upstream'] },
  { from: 'wait', to: 'cancel', causes: ['merchant'] },
  { from: 'progress', to: 'cancel', causes: ['merchant'] },
  { from: 'wait', to: 'fail', causes: ['upstream'] },
  { from: 'progress', to: 'fail', causes: ['upstream'] },
  { from: 'wait', to: 'timeout', causes: ['expiry'] },
  { from: 'progress', to: 'timeout', causes: ['expiry'] },
  // Money that arrived is the truth: an ended order becomes success, but only on upstream evidence.
  // `cancel` is a close by another name (close with useCancel), so it follows the same rule.
  { from: 'close', to: 'success', causes: ['upstream'] },
  { from: 'cancel', to: 'success', causes: ['upstream'] },
  { from: 'timeout', to: 'success', causes: ['upstream'] },
  { from: 'fail', to: 'success', causes: ['upstream'] },
];

/** Statuses a close, a cancel or an expiry acts on. */
export const OPEN_STATUSES: readonly PayStatus[] = ['wait', 'progress'];

export function isPayStatus(value: string): value is PayStatus {
  return (PAY_STATUSES as readonly string[]).includes(value);
}

export function isOpen(status: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

/** Whether `cause` may move an order from `from` to `to`. */
export function isAllowed(from: PayStatus, to: PayStatus, cause: Cause): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to && t.causes.includes(cause));
}

/** The statuses `cause` may move to `to` from: the `where status in (...)` of the conditional update. */
export function allowedFrom(to: PayStatus, cause: Cause): PayStatus[] {
  return TRANSITIONS.filter((t) => t.to === to && t.causes.includes(cause)).map((t) => t.from);
}
