// The transfer state machine as data (docs/merchant-api.md "Statuses"). `submitting` is internal: the row exists
// so the unique key elects one submitter among concurrent identical requests, but merchants never see it;
// leaving it is the transfer's creation (as `progress`, or as `fail` on a synchronous rejection), not a
// change, so it announces nothing. Every change after creation announces exactly one event.

export const TRANSFER_STATUSES = ['submitting', 'progress', 'success', 'fail', 'close'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** The statuses a merchant sees (seed section 2.4). */
export type VisibleStatus = Exclude<TransferStatus, 'submitting'>;

export interface Transition {
  from: TransferStatus;
  to: TransferStatus;
  /** Whether the change writes an OrderStatusChanged event (and so a merchant callback). */
  announce: boolean;
}

/** Every move a transfer can make; anything not listed is refused. */
export const TRANSITIONS: readonly Transition[] = [
  { from: 'submitting', to: 'progress', announce: false },
  { from: 'submitting', to: 'fail', announce: false },
  { from: 'progress', to: 'success', announce: true },
  { from: 'progress', to: 'fail', announce: true },
  { from: 'progress', to: 'close', announce: true },
  // The receiving bank returned the funds.
  { from: 'success', to: 'close', announce: true },
];

/** Statuses that finish a transfer: entering one sets finish_time. */
export const FINISHED: ReadonlySet<TransferStatus> = new Set(['success', 'fail', 'close']);

/** The transition from → to, or undefined when the machine forbids it. */
export function transitionOf(from: TransferStatus, to: TransferStatus): Transition | undefined {
  return TRANSITIONS.find((t) => t.from === from && t.to === to);
}

/** What a payout notice from upstream means, as the status path it takes from each current status. */
export type UpstreamOutcome = 'success' | 'fail' | 'returned';
export const UPSTREAM_OUTCOMES: readonly UpstreamOutcome[] = ['success', 'fail', 'returned'];

/**
 * For each outcome: the statuses to pass through from a given current status, or 'done' when the
 * transfer already reflects it (a repeated notice). A status missing from the map contradicts the
 * outcome (e.g. `success` for a failed transfer): nothing changes and an operator is warned.
 * `returned` for a transfer still in progress means it succeeded and was then returned: two changes,
 * two events, so the merchant sees that the money left and came back.
 */
export const OUTCOME_PATHS: Readonly<
  Record<UpstreamOutcome, Partial<Record<TransferStatus, readonly TransferStatus[] | 'done'>>>
> = {
  success: { progress: ['success'], success: 'done', close: 'done' },
  fail: { progress: ['fail'], fail: 'done' },
  returned: { progress: ['success', 'close'], success: ['close'], close: 'done' },
};
