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

export interface Database {
  routes: RoutesTable;
  route_merchants: RouteMerchantsTable;
  router_meta: RouterMetaTable;
  upstream_notices: UpstreamNoticesTable;
  outbox: OutboxTable;
}

export type RouteRow = Selectable<RoutesTable>;
export type UpstreamNoticeRow = Selectable<UpstreamNoticesTable>;
