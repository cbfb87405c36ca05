import type { Logger } from '@agentpay/logger';
import type { Clock } from '@agentpay/runtime';
import type { FeeRate } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import type { Upstream, VirtualAccountRef } from '../upstream/router.client.js';

/** What every pay order use case is built with (main.ts passes them). */
export interface PayOrderDeps {
  db: Kysely<Database>;
  logger: Logger;
  upstream: Upstream;
  /** `${EVENTS_SUBJECT_PREFIX}.pay.status_changed` */
  subject: string;
  /** Platform time zone, for the wire times inside payBody. */
  timeZone: string;
  /** See CREATE_LEASE_MS in config.ts. */
  createLeaseMs: number;
  /** Where expiries and waits read the time: the real one unless a test moves its own. */
  clock: Clock;
}

/** The merchant a request is for, as the gateway authenticated it. */
export interface Merchant {
  mchNo: string;
  appId: string;
  /** The registered name, shown to payers as the beneficiary. */
  name: string;
  feeRate: FeeRate;
  settleType: string;
}

/** One of a merchant's orders, by its number, the merchant's number, or both (then both must match). */
export interface OrderRef {
  mchNo: string;
  orderNo: string;
  bizOrderNo: string;
}

/** What a request carries besides its business parameters. */
export interface RequestContext {
  /** W3C traceparent of the merchant's request; every change it causes continues it. */
  traceparent: string;
}

/** The order's virtual account, as the router knows it. */
export function refOf(order: PayOrderRow): VirtualAccountRef {
  return { routeId: order.route_id ?? '', orderNo: order.order_no, upstreamRef: order.upstream_ref ?? '' };
}
