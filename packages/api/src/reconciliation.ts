// The reconciliation's vocabulary (docs/glossary.md "discrepancy"), one home for the ledger that finds and
// resolves discrepancies and the gateway that shows them to operators.

/** What a reconciliation run can find wrong with a day of a route. */
export const DISCREPANCY_KINDS = [
  'missing_on_platform',
  'missing_on_channel',
  'amount_mismatch',
  'unmatched_deposit',
] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

export const DISCREPANCY_STATES = ['open', 'resolved'] as const;
export type DiscrepancyState = (typeof DISCREPANCY_STATES)[number];

/** How an operator resolves a discrepancy: apply a deposit the platform missed; credit or return unmatched money. */
export const RESOLUTION_ACTIONS = ['apply', 'credit', 'return'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

/**
 * The actions each kind may be resolved with; a kind with none is investigated with the channel. The
 * ledger also requires `apply`'s channel side to be a deposit.
 */
export const ACTIONS_BY_KIND: Readonly<Record<DiscrepancyKind, readonly ResolutionAction[]>> = {
  missing_on_platform: ['apply'],
  missing_on_channel: [],
  amount_mismatch: [],
  unmatched_deposit: ['credit', 'return'],
};

/** The actions that may resolve a discrepancy of `kind` (none for a kind this table does not know). */
export function actionsFor(kind: string): readonly ResolutionAction[] {
  return (DISCREPANCY_KINDS as readonly string[]).includes(kind)
    ? ACTIONS_BY_KIND[kind as DiscrepancyKind]
    : [];
}
