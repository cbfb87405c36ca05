import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type Json<T> = ColumnType<T, string, string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export type ListKind = 'blocked' | 'watch';
/** pending: uploaded, waiting for a second person; effective: in use; superseded: replaced; never both. */
export type VersionState = 'pending' | 'effective' | 'superseded';

export interface ListsTable {
  id: string;
  name: string;
  kind: ListKind;
  /** Name similarity at or above this is a `hit` (0..1). */
  hit_threshold: number;
  /** At or above this (and below hit) is a `review`. */
  review_threshold: number;
  created_by: string;
  created_at: CreatedAt;
}

export interface ListVersionsTable {
  id: string;
  list_id: string;
  /** 1, 2, ... per list. */
  version: number;
  state: VersionState;
  format: string;
  entries: number;
  uploaded_by: string;
  approved_by: string | null;
  approval_id: string | null;
  created_at: CreatedAt;
  effective_at: Date | null;
}

export interface ListEntriesTable {
  id: Generated<string>;
  version_id: string;
  list_id: string;
  name: string;
  /** fold(name): lower case, no accents or punctuation, words sorted; what the trigram index reads. */
  folded: string;
  rfc: string;
  curp: string;
  birth_date: string;
  country: string;
  reference: string;
}

export type CaseKind = 'screening' | 'rule';
/** open: waits for a person; held: a payout waits for release or rejection; released/rejected: decided; closed. */
export type CaseState = 'open' | 'held' | 'released' | 'rejected' | 'closed';

export interface CasesTable {
  id: string;
  kind: CaseKind;
  state: CaseState;
  /** Idempotency: screening `screen:<operationKind>:<ref>`, rules `rule:<rule>:<subject>:<window>`. */
  unique_key: string;
  mch_no: string;
  /** Who the case is about: `{name, rfc, curp, account, bank}` or the rule's subject. */
  subject: Json<Record<string, unknown>>;
  list_id: string | null;
  list_kind: ListKind | null;
  /** The list entry matched (name, rfc, curp, reference...). */
  entry: Json<Record<string, unknown>> | null;
  score: number | null;
  rule: string | null;
  figures: Json<Record<string, unknown>> | null;
  /** Screening of a payout: true when the payout waits for a decision. */
  holds_payout: Defaulted<boolean>;
  decision: string | null;
  outcome: string | null;
  reason: string | null;
  created_at: CreatedAt;
  updated_at: Date;
  closed_at: Date | null;
}

export interface CaseOperationsTable {
  case_id: string;
  /** payout | deposit */
  kind: string;
  ref: string;
  at: Date;
  mch_no: string;
  amount: string;
  currency: string;
  name: Defaulted<string>;
  account: Defaulted<string>;
  bank: Defaulted<string>;
  rfc_curp: Defaulted<string>;
  clave_rastreo: Defaulted<string>;
}

export interface CaseEventsTable {
  id: Generated<string>;
  case_id: string;
  at: CreatedAt;
  actor: string;
  action: string;
  text: string;
  approval_id: string | null;
}

/** One row, id 1: the monitoring rules in effect (docs/compliance.md "Rules"). */
export interface SettingsTable {
  id: number;
  rules: Json<Record<string, unknown>>;
  updated_by: string;
  updated_at: Date;
}

/** What the rules have seen of operations, to count within their windows. */
export interface ObservedOperationsTable {
  /** payout:transfer_no | deposit:order_no */
  ref: string;
  kind: string;
  mch_no: string;
  amount: string;
  counterparty: Defaulted<string>;
  at: Date;
}

export interface Database {
  lists: ListsTable;
  list_versions: ListVersionsTable;
  list_entries: ListEntriesTable;
  cases: CasesTable;
  case_operations: CaseOperationsTable;
  case_events: CaseEventsTable;
  settings: SettingsTable;
  observed_operations: ObservedOperationsTable;
}

export type ListRow = Selectable<ListsTable>;
export type VersionRow = Selectable<ListVersionsTable>;
export type CaseRow = Selectable<CasesTable>;
