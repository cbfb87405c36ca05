/** The three parts of a merchant's balance, each its own account. */
export const PARTS = ['available', 'pending', 'frozen'] as const;
export type Part = (typeof PARTS)[number];

/** What an account is: one of a merchant's three parts, or a platform account (accounts_kind_check). */
export const ACCOUNT_KINDS = [...PARTS, 'fee_revenue', 'adjustments', 'clearing', 'unmatched'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const FEE_REVENUE = 'fee_revenue';
export const ADJUSTMENTS = 'adjustments';
/** The clearing account of an event that names no route. */
export const DEFAULT_ROUTE = 'default';

export function merchantAccount(mchNo: string, part: Part): string {
  return `mch:${mchNo}:${part}`;
}

export function clearingAccount(routeId: string | undefined): string {
  return `clearing:${routeId || DEFAULT_ROUTE}`;
}

/**
 * Channel money on a route that no order owns yet (unmatched deposits): recognised from the route's
 * clearing account when reconciliation finds it, and from here credited to a merchant or returned.
 */
export function unmatchedAccount(routeId: string): string {
  return `unmatched:${routeId || DEFAULT_ROUTE}`;
}

/** The kind and owner an account row is created with, from its id (one the functions above built). */
export function accountRow(id: string): { id: string; kind: AccountKind; mch_no: string | null } {
  if (id.startsWith('mch:')) {
    const part = id.slice(id.lastIndexOf(':') + 1);
    return { id, kind: knownKind(id, part), mch_no: id.slice('mch:'.length, id.lastIndexOf(':')) };
  }
  if (id.startsWith('clearing:')) return { id, kind: 'clearing', mch_no: null };
  if (id.startsWith('unmatched:')) return { id, kind: 'unmatched', mch_no: null };
  return { id, kind: knownKind(id, id), mch_no: null };
}

function knownKind(id: string, kind: string): AccountKind {
  if (!(ACCOUNT_KINDS as readonly string[]).includes(kind)) throw new Error(`account ${id}: no such kind`);
  return kind as AccountKind;
}
