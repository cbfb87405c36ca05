import type { OwnLimits, SettleType } from '@agentpay/api';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

// The gateway's stored vocabularies, each the one table its column's CHECK repeats.

/** A disabled merchant's requests are refused; its data stays. */
export const MERCHANT_STATUSES = ['enabled', 'disabled'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

/** A revoked key verifies no signature again. */
export const MERCHANT_KEY_STATUSES = ['active', 'revoked'] as const;
export type MerchantKeyStatus = (typeof MERCHANT_KEY_STATUSES)[number];

/** An invited person has not yet set a password and TOTP; a disabled one cannot sign in. */
export const USER_STATUSES = ['invited', 'enabled', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Where a four-eyes request stands (approvals/approval.repository.ts moves it). */
export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'executed', 'failed'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** How an audited request ended: done, refused for its content, or refused by authorisation. */
export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface MerchantsTable {
  mch_no: string;
  name: string;
  status: MerchantStatus;
  /** Fee in basis points of the amount (1 bp = 0.01 %). */
  fee_percent_bps: number;
  /** Fixed fee per order, centavos. */
  fee_fixed_centavos: number;
  settle_type: SettleType;
  /** Requests per second this merchant may send; null means the platform default. */
  rate_limit_per_s: number | null;
  /**
   * The merchant's own limits, centavos (CONTRACT section 19): a field left out keeps the platform default,
   * a null removes that limit.
   */
  limits: ColumnType<OwnLimits, OwnLimits | undefined, OwnLimits>;
  /** Transfers go only to registered, usable payees. */
  registered_payees_only: ColumnType<boolean, boolean | undefined, boolean>;
  /** CIDRs the merchant's signed requests may come from; empty: any. */
  allowed_ips: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MerchantAppsTable {
  mch_no: string;
  app_id: string;
  created_at: CreatedAt;
}

export interface MerchantKeysTable {
  id: Generated<string>;
  mch_no: string;
  public_key_pem: string;
  /** SHA-256 of the key's SPKI DER, hex: how operators tell keys apart without printing them. */
  fingerprint: string;
  status: MerchantKeyStatus;
  created_at: CreatedAt;
  revoked_at: Date | null;
}

export interface NoncesTable {
  mch_no: string;
  nonce: string;
  expires_at: Date;
}

export interface RateWindowsTable {
  mch_no: string;
  window_start: Date;
  count: number;
}

/** The payer's cashier page: the order's merchant and the merchant's return and quit addresses. */
export interface CashierLinksTable {
  order_no: string;
  mch_no: string;
  return_url: string;
  quit_url: string;
  created_at: CreatedAt;
}

/** A person: an operator (mch_no '') or one of a merchant's own people (identity/people.service.ts). */
export interface UsersTable {
  id: Generated<string>;
  mch_no: ColumnType<string, string | undefined, never>;
  email: string;
  name: string;
  roles: string[];
  status: UserStatus;
  /** `scrypt$N=..,r=..,p=..$salt$hash` (identity/passwords.ts); null until the invitation is accepted. */
  password_hash: string | null;
  /** AES-256-GCM under PEOPLE_SECRET_KEY (identity/secret-box.ts). */
  totp_secret_enc: string | null;
  totp_confirmed: Generated<boolean>;
  totp_last_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  failed_signins: Generated<number>;
  locked_until: Date | null;
  /** SHA-256 of the invitation token; null once used. */
  invite_token_hash: string | null;
  invite_expires_at: Date | null;
  created_by: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: Date | null;
}

export interface UserSessionsTable {
  id: Generated<string>;
  secret_hash: string;
  user_id: string;
  csrf_token: string;
  ip: string;
  user_agent: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  ended_at: Date | null;
}

export interface PersonalTokensTable {
  id: Generated<string>;
  secret_hash: string;
  user_id: string;
  name: string;
  roles: string[];
  created_at: CreatedAt;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), hash-chained: identity/audit-log.ts. */
export interface AuditLogTable {
  id: ColumnType<string, string, never>;
  at: Date;
  actor_id: string;
  actor_label: string;
  actor_via: string;
  actor_token_id: string | null;
  actor_roles: string[];
  mch_no: string | null;
  ip: string;
  user_agent: string;
  action: string;
  target: string;
  outcome: AuditOutcome;
  status: number | null;
  reason: string | null;
  /** Canonical JSON text. */
  before: string | null;
  after: string | null;
  approval_id: string | null;
  prev_hash: string;
  hash: string;
}

/** A request that needs four eyes, kept as it was made until a second person decides (approvals/). */
export interface ApprovalsTable {
  /** `apr_` and 24 hex digits. */
  id: string;
  /** The operation's name, e.g. `ledger.adjust`, `routes.create` (approvals/admin-operation.ts). */
  action: string;
  /** What it acts on, `kind:id` (e.g. `merchant:M1001`, `route:stp-main`). */
  target: string;
  /** One line for the approver: what will happen. */
  summary: string;
  /** The checked request, exactly what is executed on approval. */
  payload: ColumnType<unknown, string, never>;
  state: Generated<ApprovalState>;
  requested_by_id: string;
  requested_by_label: string;
  requested_by_roles: string[];
  requested_at: CreatedAt;
  expires_at: Date;
  decided_by_id: string | null;
  decided_by_label: string | null;
  decided_at: Date | null;
  /** The rejection's reason. */
  reason: Generated<string>;
  /** When an execution last started (approval or sweep); the sweep takes over one older than its lease. */
  claimed_at: Date | null;
  attempts: Generated<number>;
  /** What the execution answered: `{"status","body"}` as the route would have. */
  result: ColumnType<unknown, string | null, string | null>;
  executed_at: Date | null;
}

/** A merchant person's request to relax a control, waiting for a second owner or admin (CONTRACT section 19). */
export interface MerchantSettingRequestsTable {
  /** `msr_` and 24 hex digits. */
  id: string;
  mch_no: string;
  /** The settings it changes, e.g. `{"registeredPayeesOnly":false}`. */
  change: ColumnType<{ registeredPayeesOnly: false }, { registeredPayeesOnly: false }, never>;
  state: 'pending' | 'approved' | 'cancelled';
  requested_by_id: string;
  requested_by_label: string;
  requested_at: CreatedAt;
  decided_by_id: string | null;
  decided_at: Date | null;
}

/** One checked item of a dashboard batch request (centavos), as transfers will take it. */
export interface BatchRequestItem {
  bizTransferNo: string;
  amount: number;
  payeeType: string;
  payeeAccount: string;
  payeeName: string;
  payeeCode: string;
  title: string;
  reason: string;
}

/** A batch payout asked for on the dashboard, waiting for a second person (migration 20261128T2100). */
export interface BatchRequestsTable {
  /** `bat_` and 24 hex digits. */
  id: string;
  mch_no: string;
  biz_batch_no: string;
  notify_url: ColumnType<string, string | undefined, never>;
  items: ColumnType<BatchRequestItem[], string, never>;
  count: number;
  /** Centavos. */
  amount: number;
  state: 'pending' | 'approved' | 'rejected' | 'cancelled';
  requested_by_id: string;
  requested_by_label: string;
  requested_at: CreatedAt;
  decided_by_id: string | null;
  decided_by_label: string | null;
  decided_at: Date | null;
  /** The batch transfers created, once approved. */
  batch_no: string | null;
}

export interface Database {
  merchants: MerchantsTable;
  merchant_apps: MerchantAppsTable;
  merchant_keys: MerchantKeysTable;
  nonces: NoncesTable;
  rate_windows: RateWindowsTable;
  cashier_links: CashierLinksTable;
  users: UsersTable;
  recovery_codes: RecoveryCodesTable;
  user_sessions: UserSessionsTable;
  personal_tokens: PersonalTokensTable;
  audit_log: AuditLogTable;
  approvals: ApprovalsTable;
  merchant_setting_requests: MerchantSettingRequestsTable;
  batch_requests: BatchRequestsTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type NewMerchantRow = Insertable<MerchantsTable>;
export type MerchantKeyRow = Selectable<MerchantKeysTable>;
export type UserRow = Selectable<UsersTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type ApprovalRow = Selectable<ApprovalsTable>;
