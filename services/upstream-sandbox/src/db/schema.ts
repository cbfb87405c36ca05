import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export type AccountStatus = 'open' | 'paid' | 'closed' | 'expired';
export type PayoutStatus = 'processing' | 'succeeded' | 'failed' | 'returned' | 'rejected';
/** What the outcome rules decided at acceptance; `none` for a payout rejected at once. */
export type PlannedOutcome = 'succeed' | 'fail' | 'return' | 'none';

export interface VirtualAccountsTable {
  id: string;
  /** The platform's order number; one account per order, ever. */
  order_ref: string;
  clabe: string;
  reference: string;
  /** Centavos the payer must send. */
  amount: number;
  expires_at: Timestamp;
  notice_url: string;
  status: ColumnType<AccountStatus, AccountStatus | undefined, AccountStatus>;
  paid_amount: ColumnType<number, number | undefined, number>;
  paid_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface DepositsTable {
  id: string;
  clabe: string;
  amount: number;
  account_id: string | null;
  matched: boolean;
  /** Why an unmatched deposit was not applied: unknown_account, amount_mismatch, account_paid, … */
  reason: string | null;
  notify: boolean;
  /** SPEI tracking key of the incoming transfer, unique, at most 30 characters. */
  clave_rastreo: string;
  /** The payer's account (a CLABE) and name, as SPEI reports them; a return goes back there. */
  sender_account: string;
  sender_name: string;
  /** The payer's bank (5-digit Banxico code) and RFC/CURP (`ND` when unknown). */
  sender_bank: ColumnType<string, string | undefined, string>;
  sender_rfc: ColumnType<string, string | undefined, string>;
  /** What the statement shows instead of `amount` (a tester's trigger); null: the real amount. */
  statement_amount: number | null;
  created_at: CreatedAt;
}

export interface PayoutsTable {
  id: string;
  payout_ref: string;
  amount: number;
  payee_type: string;
  account: string;
  name: string;
  bank_code: string;
  notice_url: string;
  status: PayoutStatus;
  planned_outcome: PlannedOutcome;
  reason: string | null;
  /** When a `processing` payout settles; the settle scheduler's queue. */
  settle_at: NullableTimestamp;
  /** When a `succeeded` payout planned to be returned comes back. */
  return_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  returned_at: NullableTimestamp;
  /** SPEI tracking key of the money leaving; set when the payout succeeds. */
  clave_rastreo: ColumnType<string | null, string | null | undefined, string | null>;
  /** SPEI tracking key of the money coming back; set when the payout is returned. */
  return_clave_rastreo: ColumnType<string | null, string | null | undefined, string | null>;
  /** A tester's trigger: the payout succeeds and notifies but the statement leaves it off. */
  statement_omit: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the statement shows instead of `amount` for the payout (a tester's trigger); null: the real one. */
  statement_amount: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
}

export interface NoticesTable {
  /** Unique notice id, also inside the body; the platform dedupes on it. */
  id: string;
  type: string;
  /** orderRef or payoutRef the notice is about. */
  ref: string;
  url: string;
  /** The exact JSON text sent (and signed), so a retry sends the same bytes. */
  body: string;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  delivered_at: NullableTimestamp;
  gave_up_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
}

/** A company registered with the STP face (what STP's onboarding gives a participant). */
export interface StpCompaniesTable {
  empresa: string;
  /** PEM of the public half of the key the company signs with. */
  public_key_pem: string;
  /** 10 digits: every CLABE starting with them is the company's. */
  clabe_prefix: string;
  /** Where the webhooks go: `{webhook_base}/abono`, `{webhook_base}/cambio-estado`. */
  webhook_base: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type StpTipoOrden = 'E' | 'R';
/** How an accepted E order ends, from the tester rules on its payee name. */
export type StpPlanned = 'liquidate' | 'return' | 'cancel';
/** What the company answered an R order's abono. */
export type StpAnswer = 'pending' | 'confirmar' | 'devolver';

/** An STP order: E sent by a company (registraOrden), R received for it (a tester's deposit). */
export interface StpOrdersTable {
  /** STP's id of the order (registraOrden's answer, `idEF`); from stp_order_id_seq. */
  id: Generated<number>;
  empresa: string;
  tipo_orden: StpTipoOrden;
  /** The SPEI operation day, yyyyMMdd (Mexico City). */
  fecha_operacion: string;
  clave_rastreo: string;
  /** STP's estado: E, LQ, CN, D for sent orders; R, LQ, D for received ones. */
  estado: string;
  /** Centavos. */
  monto: number;
  /** Centavos conciliacion shows instead of `monto` (a tester's trigger); null: the real amount. */
  statement_monto: number | null;
  institucion_contraparte: string;
  cuenta_ordenante: string;
  nombre_ordenante: string;
  tipo_cuenta_ordenante: number;
  rfc_curp_ordenante: string;
  cuenta_beneficiario: string;
  nombre_beneficiario: string;
  tipo_cuenta_beneficiario: number;
  rfc_curp_beneficiario: string;
  concepto_pago: string;
  referencia_numerica: number;
  tipo_pago: number;
  /** The company's own reference of an E order, as it sent it; empty when it sent none. */
  folio_origen: string;
  planned: StpPlanned | null;
  answer: StpAnswer | null;
  causa_devolucion: number | null;
  ts_liquidacion: NullableTimestamp;
  /** When an E order in flight settles (LQ or CN); the scheduler's queue. */
  settle_at: NullableTimestamp;
  /** When a liquidated RETURN order comes back (D). */
  return_at: NullableTimestamp;
  /** The JSON the company sent (E) or the abono carried (R), for testers. */
  received: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export type StpWebhookKind = 'abono' | 'cambio-estado';

/** A webhook to a company, delivered and retried like the notices. */
export interface StpWebhooksTable {
  id: string;
  order_id: number;
  kind: StpWebhookKind;
  url: string;
  /** The exact JSON text sent; every attempt and every resend carry these bytes. */
  body: string;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  delivered_at: NullableTimestamp;
  gave_up_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
}

/** One HTTP attempt of a webhook and what came back. */
export interface StpWebhookAttemptsTable {
  id: Generated<number>;
  webhook_id: string;
  /** A tester's resend, not a scheduled attempt. */
  resend: boolean;
  http_status: number | null;
  response: string | null;
  error: string | null;
  at: ColumnType<Date, Date | undefined, never>;
}

export interface Database {
  virtual_accounts: VirtualAccountsTable;
  deposits: DepositsTable;
  payouts: PayoutsTable;
  notices: NoticesTable;
  stp_companies: StpCompaniesTable;
  stp_orders: StpOrdersTable;
  stp_webhooks: StpWebhooksTable;
  stp_webhook_attempts: StpWebhookAttemptsTable;
}

export type VirtualAccountRow = Selectable<VirtualAccountsTable>;
export type DepositRow = Selectable<DepositsTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type NoticeRow = Selectable<NoticesTable>;
export type StpCompanyRow = Selectable<StpCompaniesTable>;
export type StpOrderRow = Selectable<StpOrdersTable>;
export type StpWebhookRow = Selectable<StpWebhooksTable>;
export type StpWebhookAttemptRow = Selectable<StpWebhookAttemptsTable>;
