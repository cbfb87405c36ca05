// What the checks read after a run: the rows of the services' own databases (payments, transfers,
// notifier, the router's records of each route's accounts, deposits and payouts, and the sandbox standing
// in for both channels: its own tables and those of its STP face).
import type { ServiceName, Stack } from '@agentpay/stack';
import pg from 'pg';

export interface Snapshot {
  payOrders: {
    order_no: string;
    mch_no: string;
    biz_order_no: string;
    status: string;
    version: number;
    notify_url: string;
    expired_time: Date;
    opened_at: Date | null;
    route_id: string | null;
  }[];
  payHistory: {
    order_no: string;
    from_status: string;
    to_status: string;
    version: number;
    cause: string;
    event_id: string;
  }[];
  payEvents: { id: string; order_no: string; version: string; to_status: string; published: boolean }[];
  transfers: {
    transfer_no: string;
    mch_no: string;
    biz_transfer_no: string;
    status: string;
    version: number;
    notify_url: string;
    payee_name: string;
    submission: string;
    route_id: string | null;
  }[];
  transferEvents: {
    id: string;
    order_no: string;
    from_status: string;
    to_status: string;
    version: string;
    snapshot_status: string;
    published: boolean;
  }[];
  deliveries: {
    id: string;
    event_id: string;
    kind: string;
    order_no: string;
    version: number;
    to_status: string;
    status: string;
    notify_url: string;
  }[];
  attempts: { delivery_id: string; outcome: string; started_at: Date; error?: string | null }[];
  accounts: { order_ref: string; status: string; clabe: string }[];
  payouts: { payout_ref: string; status: string }[];
  deposits: { clabe: string; matched: boolean; account_id: string | null }[];
  accountIds: { id: string; order_ref: string }[];
  /** The router's record of every pay order's CLABE, on either route. */
  routerAccounts: { order_no: string; route_id: string; clabe: string; status: string; assigned: boolean }[];
  /** Every deposit a channel offered the router (STP's abonos), with its decision. */
  channelDeposits: {
    route_id: string;
    deposit_id: string;
    clabe: string;
    amount: number;
    clave_rastreo: string;
    order_no: string;
    decision: string;
    reason: string;
  }[];
  /** Every payout the router sent on a route, with STP's tracking key. */
  channelPayouts: { route_id: string; transfer_no: string; upstream_ref: string; clave_rastreo: string }[];
  /** The STP emulator's orders: E sent (payouts), R received (deposits). */
  stpOrders: {
    id: number;
    tipo_orden: string;
    estado: string;
    clave_rastreo: string;
    monto: number;
    cuenta_beneficiario: string;
    nombre_beneficiario: string;
    planned: string | null;
    answer: string | null;
    settle_at: Date | null;
    return_at: Date | null;
  }[];
  /** The STP emulator's webhooks to the router: delivered, given up, or still being tried. */
  stpWebhooks: { id: string; order_id: number; kind: string; delivered: boolean; gave_up: boolean }[];
}

export interface Databases {
  payments: pg.Pool;
  transfers: pg.Pool;
  notifier: pg.Pool;
  router: pg.Pool;
  sandbox: pg.Pool;
}

export function openDatabases(stack: Stack): Databases {
  const pool = (service: ServiceName) => {
    const p = new pg.Pool({ connectionString: stack.databaseUrl(service), max: 2 });
    p.on('error', () => {});
    return p;
  };
  return {
    payments: pool('payments'),
    transfers: pool('transfers'),
    notifier: pool('notifier'),
    router: pool('upstream-router'),
    sandbox: pool('upstream-sandbox'),
  };
}

export async function closeDatabases(db: Databases): Promise<void> {
  await Promise.all([
    db.payments.end(),
    db.transfers.end(),
    db.notifier.end(),
    db.router.end(),
    db.sandbox.end(),
  ]);
}

/** The rows the checks judge, from the services' own databases. */
export async function snapshot(db: Databases): Promise<Snapshot> {
  const q = async <T extends pg.QueryResultRow>(pool: pg.Pool, text: string) =>
    (await pool.query<T>(text)).rows;
  const [payOrders, payHistory, payEvents, transfers, transferEvents, deliveries, attempts] =
    await Promise.all([
      q<Snapshot['payOrders'][number]>(
        db.payments,
        'select order_no, mch_no, biz_order_no, status, version::int as version, notify_url, expired_time, opened_at, route_id from pay_orders',
      ),
      q<Snapshot['payHistory'][number]>(
        db.payments,
        'select order_no, from_status, to_status, version::int as version, cause, event_id::text from pay_order_status_history order by order_no, version',
      ),
      q<Snapshot['payEvents'][number]>(
        db.payments,
        `select id::text, payload->>'order_no' as order_no, payload->>'version' as version,
                payload->>'to_status' as to_status, published_at is not null as published
         from outbox order by seq`,
      ),
      q<Snapshot['transfers'][number]>(
        db.transfers,
        'select transfer_no, mch_no, biz_transfer_no, status, version::int as version, notify_url, payee_name, submission, route_id from transfers',
      ),
      q<Snapshot['transferEvents'][number]>(
        db.transfers,
        `select id::text, payload->>'order_no' as order_no, payload->>'from_status' as from_status,
                payload->>'to_status' as to_status, payload->>'version' as version,
                payload->'transfer'->>'status' as snapshot_status, published_at is not null as published
         from outbox order by seq`,
      ),
      q<Snapshot['deliveries'][number]>(
        db.notifier,
        'select id::text, event_id::text, kind, order_no, version::int as version, to_status, status, notify_url from deliveries',
      ),
      q<Snapshot['attempts'][number]>(
        db.notifier,
        'select delivery_id::text, outcome, started_at, error from delivery_attempts',
      ),
    ]);
  const [accounts, payouts, deposits, accountIds, stpOrders, stpWebhooks] = await Promise.all([
    q<Snapshot['accounts'][number]>(db.sandbox, 'select order_ref, status, clabe from virtual_accounts'),
    q<Snapshot['payouts'][number]>(db.sandbox, 'select payout_ref, status from payouts'),
    q<Snapshot['deposits'][number]>(db.sandbox, 'select clabe, matched, account_id from deposits'),
    q<Snapshot['accountIds'][number]>(db.sandbox, 'select id, order_ref from virtual_accounts'),
    q<Snapshot['stpOrders'][number]>(
      db.sandbox,
      `select id::int as id, tipo_orden, estado, clave_rastreo, monto::int as monto, cuenta_beneficiario,
              nombre_beneficiario, planned, answer, settle_at, return_at
         from stp_orders order by id`,
    ),
    q<Snapshot['stpWebhooks'][number]>(
      db.sandbox,
      `select id::text, order_id::int as order_id, kind, delivered_at is not null as delivered,
              gave_up_at is not null as gave_up
         from stp_webhooks`,
    ),
  ]);
  const [routerAccounts, channelDeposits, channelPayouts] = await Promise.all([
    q<Snapshot['routerAccounts'][number]>(
      db.router,
      'select order_no, route_id, clabe, status, assigned from virtual_accounts',
    ),
    q<Snapshot['channelDeposits'][number]>(
      db.router,
      `select route_id, deposit_id, clabe, amount::int as amount, clave_rastreo, order_no, decision, reason
         from channel_deposits`,
    ),
    q<Snapshot['channelPayouts'][number]>(
      db.router,
      'select route_id, transfer_no, upstream_ref, clave_rastreo from channel_payouts',
    ),
  ]);
  return {
    payOrders,
    payHistory,
    payEvents,
    transfers,
    transferEvents,
    deliveries,
    attempts,
    accounts,
    payouts,
    deposits,
    accountIds,
    routerAccounts,
    channelDeposits,
    channelPayouts,
    stpOrders,
    stpWebhooks,
  };
}

/** STP payouts in flight right now: the STP merchants' transfers not final, the emulator's orders and webhooks. */
export async function stpInFlight(
  db: Databases,
  stpMerchants: readonly string[],
): Promise<{ stpTransfers: number; stpOrders: number; stpWebhooks: number }> {
  const count = async (pool: pg.Pool, text: string, values: unknown[] = []) =>
    (await pool.query<{ n: number }>(text, values)).rows[0]?.n ?? 0;
  const [stpTransfers, stpOrders, stpWebhooks] = await Promise.all([
    count(
      db.transfers,
      `select count(*)::int as n from transfers where mch_no = any($1) and status in ('submitting', 'progress')`,
      [stpMerchants],
    ),
    count(
      db.sandbox,
      `select count(*)::int as n from stp_orders
        where tipo_orden = 'E' and (estado = 'E' or (estado = 'LQ' and return_at is not null))`,
    ),
    count(
      db.sandbox,
      `select count(*)::int as n from stp_webhooks
        where kind = 'cambio-estado' and delivered_at is null and gave_up_at is null`,
    ),
  ]);
  return { stpTransfers, stpOrders, stpWebhooks };
}
