import type { OutboxTable } from '@agentpay/messaging';
import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type Json<T> = ColumnType<T, string, string>;

export interface RoutesTable {
  /** Internal id; never shown to merchants. */
  id: string;
  name: string;
  /** Which channel adapter speaks to this route's upstream, e.g. `sandbox`. */
  adapter: string;
  /** Adapter settings such as the channel's base URL. */
  config: Json<Record<string, unknown>>;
  /** Name of the secret holding the channel credentials (never the credentials themselves). */
  credentials_ref: string;
  enabled: boolean;
  /** Public payment method codes served, e.g. mex_virtual_account. */
  methods: string[];
  /** Public payee types served, e.g. spei_transfer. */
  payee_types: string[];
  /** Lower is preferred. */
  priority: number;
  /** Share of traffic among routes of equal priority. */
  weight: number;
  /** `all` merchants, or only those in route_merchants. */
  merchant_scope: string;
  /** Public payee code → this channel's own code. */
  code_map: Json<Record<string, string>>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** The label of the operator who created the route (gRPC metadata x-agentpay-actor); '' when seeded. */
  created_by: Generated<string>;
  /** The label of the operator of the last change; '' when none was named. */
  updated_by: Generated<string>;
  /** The approval (four eyes) the last change carried out, '' when it needed none. */
  approval_id: Generated<string>;
}

export interface RouteMerchantsTable {
  route_id: string;
  mch_no: string;
}

export interface RouterMetaTable {
  key: string;
  value: string;
}

/**
 * Every notice a channel delivered, once per route and notice id. Recording one writes its NoticeReceived
 * event to the outbox in the same transaction; payments or transfers apply it from there.
 */
export interface UpstreamNoticesTable {
  route_id: string;
  /** The channel's notice id; a repeat of it is acknowledged and changes nothing. */
  notice_id: string;
  kind: 'payment' | 'payout';
  /** The platform's order_no or transfer_no. */
  ref: string;
  /** Translated status: success, fail, close, returned. */
  status: string;
  /** The translated notice as first received. */
  payload: Json<Record<string, unknown>>;
  received_at: CreatedAt;
  /** How many times the channel delivered it. */
  deliveries: Generated<number>;
}

/** A pay order's CLABE on its route (migration 20261126T2300_channel_records). */
export interface VirtualAccountsTable {
  order_no: string;
  route_id: string;
  clabe: string;
  /** Centavos the order expects; a deposit of any other amount is returned. */
  amount: ColumnType<number, number, never>;
  status: 'open' | 'paid' | 'closed';
  /** The router allocated the CLABE under the route's prefix (true), or the channel opened it (false). */
  assigned: boolean;
  /** The channel's reference of the account; '' when the router assigned it. */
  upstream_ref: string;
  expires_at: Date;
  paid_amount: ColumnType<number, number | undefined, number>;
  paid_at: Date | null;
  /** SPEI tracking key of the deposit that paid it. */
  clave_rastreo: ColumnType<string, string | undefined, string>;
  /** When it stopped being open: the start of its CLABE's quarantine. */
  ended_at: Date | null;
  created_at: CreatedAt;
}

export interface ClabeCursorsTable {
  route_id: string;
  next_number: ColumnType<number, number, number>;
}

/** Every deposit a channel offered on a route, once, with the router's answer. */
export interface ChannelDepositsTable {
  route_id: string;
  /** The channel's id of the deposit; a repeat gets the first answer. */
  deposit_id: string;
  clabe: string;
  amount: ColumnType<number, number, never>;
  clave_rastreo: string;
  /** The order it paid; '' when returned. */
  order_no: string;
  decision: 'accepted' | 'returned';
  /** Why it was returned: unknown_account, order_not_open, amount_mismatch. */
  reason: string;
  sender_account: string;
  sender_name: string;
  deliveries: Generated<number>;
  received_at: CreatedAt;
}

/** Every payout sent on a route: the channel's id (filled once it answered) and SPEI tracking key. */
export interface ChannelPayoutsTable {
  route_id: string;
  transfer_no: string;
  upstream_ref: ColumnType<string, string | undefined, string>;
  clave_rastreo: ColumnType<string, string | undefined, string>;
  sent_at: ColumnType<Date, Date | undefined, never>;
  /** Centavos sent (migration 20261127T1100_route_figures; 0 on older rows). */
  amount: ColumnType<number, number | undefined, never>;
  /**
   * How the payout has ended so far on this route: progress, then success, fail or returned (a success may
   * still become returned); `fail` also when the route did not take it and another route was tried.
   */
  status: ColumnType<PayoutOutcome, PayoutOutcome | undefined, PayoutOutcome>;
  finished_at: Date | null;
}

export const PAYOUT_OUTCOMES = ['progress', 'success', 'fail', 'returned'] as const;
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number];

export interface Database {
  routes: RoutesTable;
  route_merchants: RouteMerchantsTable;
  router_meta: RouterMetaTable;
  upstream_notices: UpstreamNoticesTable;
  virtual_accounts: VirtualAccountsTable;
  clabe_cursors: ClabeCursorsTable;
  channel_deposits: ChannelDepositsTable;
  channel_payouts: ChannelPayoutsTable;
  outbox: OutboxTable;
}

export type RouteRow = Selectable<RoutesTable>;
export type UpstreamNoticeRow = Selectable<UpstreamNoticesTable>;
export type VirtualAccountRow = Selectable<VirtualAccountsTable>;
export type ChannelPayoutRow = Selectable<ChannelPayoutsTable>;
