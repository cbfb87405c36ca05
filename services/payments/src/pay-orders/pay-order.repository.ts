import { allColumns, compiledOnce } from '@agentpay/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, PayOrderRow, PayOrdersTable } from '../db/schema.js';
import type { Cause, PayStatus } from './pay-order.state-machine.js';

// Orders still being opened (opened_at null) are invisible to merchants: every read a merchant can
// reach filters on opened_at.
//
// The statements of every create and query are compiled once and run prepared (@agentpay/db
// compiledOnce), so they name their columns instead of `*`.

const ORDER_COLUMNS = allColumns<PayOrdersTable>({
  order_no: true,
  mch_no: true,
  biz_order_no: true,
  app_id: true,
  title: true,
  description: true,
  method: true,
  limit_pay: true,
  amount: true,
  fee: true,
  real_amount: true,
  status: true,
  settle_status: true,
  settle_type: true,
  settle_time: true,
  pay_time: true,
  paid_amount: true,
  close_time: true,
  expired_time: true,
  attach: true,
  notify_url: true,
  return_url: true,
  quit_url: true,
  extra_param: true,
  client_ip: true,
  pay_body: true,
  route_id: true,
  upstream_ref: true,
  clave_rastreo: true,
  payer_account: true,
  payer_name: true,
  payer_bank: true,
  payer_rfc: true,
  cep_url: true,
  fingerprint: true,
  version: true,
  created_at: true,
  updated_at: true,
  opened_at: true,
  create_claim: true,
  create_claim_until: true,
  sweep_claim_until: true,
});

const first = <R>(result: { rows: R[] }): R | undefined => result.rows[0];

/** What opening an order's virtual account needs of it (pay-order.service.ts `open`). */
export const OPENING_COLUMNS = [
  'order_no',
  'mch_no',
  'biz_order_no',
  'method',
  'amount',
  'expired_time',
] as const;
export type OpeningRow = Pick<PayOrderRow, (typeof OPENING_COLUMNS)[number]>;

/** The opened orders of one merchant, every column listed. */
const openedOf = (db: Kysely<Database>, mchNo: string) =>
  db
    .selectFrom('pay_orders')
    .select(ORDER_COLUMNS)
    .where('mch_no', '=', mchNo)
    .where('opened_at', 'is not', null);

const merchantOrderBy = {
  orderNo: compiledOnce<Database, { mchNo: string; orderNo: string }, PayOrderRow>((db, p) =>
    openedOf(db, p.mchNo).where('order_no', '=', p.orderNo),
  ),
  bizOrderNo: compiledOnce<Database, { mchNo: string; bizOrderNo: string }, PayOrderRow>((db, p) =>
    openedOf(db, p.mchNo).where('biz_order_no', '=', p.bizOrderNo),
  ),
  both: compiledOnce<Database, { mchNo: string; orderNo: string; bizOrderNo: string }, PayOrderRow>((db, p) =>
    openedOf(db, p.mchNo).where('order_no', '=', p.orderNo).where('biz_order_no', '=', p.bizOrderNo),
  ),
};

/** An order of `mchNo` by platform number, merchant number, or both (then both must match). */
export async function findMerchantOrder(
  db: Kysely<Database>,
  mchNo: string,
  ref: { orderNo?: string; bizOrderNo?: string },
): Promise<PayOrderRow | undefined> {
  const { orderNo, bizOrderNo } = ref;
  if (orderNo && bizOrderNo) return first(await merchantOrderBy.both.run(db, { mchNo, orderNo, bizOrderNo }));
  if (orderNo) return first(await merchantOrderBy.orderNo.run(db, { mchNo, orderNo }));
  if (bizOrderNo) return first(await merchantOrderBy.bizOrderNo.run(db, { mchNo, bizOrderNo }));
  return undefined;
}

/** An opened order by platform number, whoever its merchant. */
export async function findOpenedOrder(
  db: Kysely<Database>,
  orderNo: string,
): Promise<PayOrderRow | undefined> {
  return db
    .selectFrom('pay_orders')
    .selectAll()
    .where('order_no', '=', orderNo)
    .where('opened_at', 'is not', null)
    .executeTakeFirst();
}

const byBizOrderNo = compiledOnce<Database, { mchNo: string; bizOrderNo: string }, PayOrderRow>((db, p) =>
  db
    .selectFrom('pay_orders')
    .select(ORDER_COLUMNS)
    .where('mch_no', '=', p.mchNo)
    .where('biz_order_no', '=', p.bizOrderNo),
);

/** The row holding (mchNo, bizOrderNo), opened or still being opened. */
export async function findByBizOrderNo(
  db: Kysely<Database>,
  mchNo: string,
  bizOrderNo: string,
): Promise<PayOrderRow | undefined> {
  return first(await byBizOrderNo.run(db, { mchNo, bizOrderNo }));
}

/** A new order's columns, as `insertCreating` writes them. */
export type NewOrder = Pick<
  PayOrderRow,
  | 'mch_no'
  | 'biz_order_no'
  | 'app_id'
  | 'title'
  | 'description'
  | 'method'
  | 'limit_pay'
  | 'amount'
  | 'fee'
  | 'real_amount'
  | 'status'
  | 'settle_status'
  | 'settle_type'
  | 'attach'
  | 'notify_url'
  | 'return_url'
  | 'quit_url'
  | 'extra_param'
  | 'client_ip'
  | 'fingerprint'
> & {
  /** null: `defaultExpiryMs` from now, by the database's clock. */
  expired_time: Date | null;
};

const insertOpening = compiledOnce<
  Database,
  NewOrder & { claim: string; leaseSeconds: number; defaultExpirySeconds: number },
  OpeningRow
>((db, p) =>
  db
    .insertInto('pay_orders')
    .values({
      mch_no: p.mch_no,
      biz_order_no: p.biz_order_no,
      app_id: p.app_id,
      title: p.title,
      description: p.description,
      method: p.method,
      limit_pay: p.limit_pay,
      amount: p.amount,
      fee: p.fee,
      real_amount: p.real_amount,
      status: p.status,
      settle_status: p.settle_status,
      settle_type: p.settle_type,
      expired_time: sql<Date>`coalesce(${p.expired_time}::timestamptz, now() + make_interval(secs => ${p.defaultExpirySeconds}))`,
      attach: p.attach,
      notify_url: p.notify_url,
      return_url: p.return_url,
      quit_url: p.quit_url,
      extra_param: p.extra_param,
      client_ip: p.client_ip,
      fingerprint: p.fingerprint,
      create_claim: p.claim,
      create_claim_until: sql<Date>`now() + make_interval(secs => ${p.leaseSeconds})`,
    })
    .onConflict((oc) => oc.constraint('pay_orders_mch_no_biz_order_no_key').doNothing())
    .returning(OPENING_COLUMNS),
);

/**
 * Inserts an order still being opened, owned by `claim` for `leaseMs`; undefined when (mch_no,
 * biz_order_no) is taken — the unique constraint elects one winner among concurrent creates.
 */
export async function insertCreating(
  db: Kysely<Database>,
  row: NewOrder,
  claim: string,
  opts: { leaseMs: number; defaultExpiryMs: number },
): Promise<OpeningRow | undefined> {
  return first(
    await insertOpening.run(db, {
      ...row,
      claim,
      leaseSeconds: opts.leaseMs / 1000,
      defaultExpirySeconds: opts.defaultExpiryMs / 1000,
    }),
  );
}

/** Takes over an opening whose owner's lease ran out (it crashed); undefined if someone else holds it. */
export async function takeOverCreating(
  db: Kysely<Database>,
  orderNo: string,
  claim: string,
  leaseMs: number,
): Promise<PayOrderRow | undefined> {
  return db
    .updateTable('pay_orders')
    .set({
      create_claim: claim,
      create_claim_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`,
      updated_at: sql<Date>`now()`,
    })
    .where('order_no', '=', orderNo)
    .where('opened_at', 'is', null)
    .where('create_claim_until', '<', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

const markOpening = compiledOnce<
  Database,
  { orderNo: string; claim: string; payBody: string; routeId: string; upstreamRef: string },
  PayOrderRow
>((db, p) =>
  db
    .updateTable('pay_orders')
    .set({
      pay_body: p.payBody,
      route_id: p.routeId,
      upstream_ref: p.upstreamRef,
      opened_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
      create_claim: null,
      create_claim_until: null,
    })
    .where('order_no', '=', p.orderNo)
    .where('create_claim', '=', p.claim)
    .where('opened_at', 'is', null)
    .returning(ORDER_COLUMNS),
);

/** Records the opened virtual account, if `claim` still owns the opening. */
export async function markOpened(
  db: Kysely<Database>,
  orderNo: string,
  claim: string,
  account: { payBody: string; routeId: string; upstreamRef: string },
): Promise<PayOrderRow | undefined> {
  return first(await markOpening.run(db, { orderNo, claim, ...account }));
}

/** Removes an opening that failed, so the merchant's retry starts afresh; only while `claim` owns it. */
export async function deleteCreating(db: Kysely<Database>, orderNo: string, claim: string): Promise<void> {
  await db
    .deleteFrom('pay_orders')
    .where('order_no', '=', orderNo)
    .where('create_claim', '=', claim)
    .where('opened_at', 'is', null)
    .execute();
}

/** Removes openings abandoned by a crashed owner `graceMs` past their lease; returns how many. */
export async function deleteAbandonedCreating(db: Kysely<Database>, graceMs: number): Promise<number> {
  const result = await db
    .deleteFrom('pay_orders')
    .where('opened_at', 'is', null)
    .where('create_claim_until', '<', sql<Date>`now() - make_interval(secs => ${graceMs / 1000})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface StatusUpdate {
  orderNo: string;
  /** The status the order must still have (read at `version`). */
  from: PayStatus;
  version: number;
  to: PayStatus;
  /** The `where status in (...)` set: the statuses the state machine allows this change from. */
  allowedFrom: readonly PayStatus[];
  set: Partial<
    Pick<PayOrderRow, 'pay_time' | 'paid_amount' | 'close_time' | 'settle_status' | 'settle_time'>
  >;
}

/** The conditional update of a status change; undefined when the order moved meanwhile. */
export async function updateStatus(
  trx: Transaction<Database>,
  update: StatusUpdate,
): Promise<PayOrderRow | undefined> {
  if (update.allowedFrom.length === 0) return undefined;
  return trx
    .updateTable('pay_orders')
    .set({
      ...update.set,
      status: update.to,
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('order_no', '=', update.orderNo)
    .where('status', 'in', update.allowedFrom)
    .where('status', '=', update.from)
    .where('version', '=', update.version)
    .where('opened_at', 'is not', null)
    .returningAll()
    .executeTakeFirst();
}

export async function insertHistory(
  trx: Transaction<Database>,
  entry: {
    orderNo: string;
    from: PayStatus;
    to: PayStatus;
    version: number;
    cause: Cause;
    noticeId?: string | undefined;
    eventId: string;
  },
): Promise<void> {
  await trx
    .insertInto('pay_order_status_history')
    .values({
      order_no: entry.orderNo,
      from_status: entry.from,
      to_status: entry.to,
      version: entry.version,
      cause: entry.cause,
      notice_id: entry.noticeId ?? null,
      event_id: entry.eventId,
    })
    .execute();
}

/**
 * Claims up to `limit` open orders expired by `now` for `leaseMs`. SKIP LOCKED lets several replicas
 * sweep at once without waiting on or double-claiming each other's rows. Expiry is read against the
 * service's clock (`now`); the lease, which only replicas compare, against the database's.
 */
export async function claimExpired(
  db: Kysely<Database>,
  limit: number,
  leaseMs: number,
  now: Date,
): Promise<PayOrderRow[]> {
  return db
    .updateTable('pay_orders')
    .set({ sweep_claim_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('order_no', 'in', (eb) =>
      eb
        .selectFrom('pay_orders')
        .select('order_no')
        .where('status', 'in', ['wait', 'progress'])
        .where('opened_at', 'is not', null)
        .where('expired_time', '<=', now)
        .where((w) =>
          w.or([w('sweep_claim_until', 'is', null), w('sweep_claim_until', '<', sql<Date>`now()`)]),
        )
        .orderBy('expired_time')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** Lets the next sweep round look at the order again (it is still open: upstream could not be settled). */
export async function releaseSweepClaim(db: Kysely<Database>, orderNo: string): Promise<void> {
  await db
    .updateTable('pay_orders')
    .set({ sweep_claim_until: null })
    .where('order_no', '=', orderNo)
    .execute();
}

/**
 * Records that the ledger settled an order (OrderSettled): no status change, no version, no event, so
 * no callback; query and later callbacks show it. False when it was settled already (a redelivery, or a
 * REALTIME order settled with its success).
 */
export async function markSettled(db: Kysely<Database>, orderNo: string, settleTime: Date): Promise<boolean> {
  const result = await db
    .updateTable('pay_orders')
    .set({ settle_status: 'settled', settle_time: settleTime })
    .where('order_no', '=', orderNo)
    .where('settle_status', '=', 'not_settle')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
