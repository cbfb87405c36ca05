// What the checks read after a run: the rows of the services' own databases (payments, transfers,
// notifier, and the sandbox standing in for the channel).
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
  attempts: { delivery_id: string; outcome: string; started_at: Date }[];
  accounts: { order_ref: string; status: string; clabe: string }[];
  payouts: { payout_ref: string; status: string }[];
  deposits: { clabe: string; matched: boolean; account_id: string | null }[];
  accountIds: { id: string; order_ref: string }[];
}

export interface Databases {
  payments: pg.Pool;
  transfers: pg.Pool;
  notifier: pg.Pool;
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
    sandbox: pool('upstream-sandbox'),
  };
}

export async function closeDatabases(db: Databases): Promise<void> {
  await Promise.all([db.payments.end(), db.transfers.end(), db.notifier.end(), db.sandbox.end()]);
}

/** The rows the checks judge, from the services' own databases. */
export async function snapshot(db: Databases): Promise<Snapshot> {
  const q = async <T extends pg.QueryResultRow>(pool: pg.Pool, text: string) =>
    (await pool.query<T>(text)).rows;
  const [payOrders, payHistory, payEvents, transfers, transferEvents, deliveries, attempts] =
    await Promise.all([
      q<Snapshot['payOrders'][number]>(
        db.payments,
        'select order_no, mch_no, biz_order_no, status, version::int as version, notify_url, expired_time, opened_at from pay_orders',
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
        'select delivery_id::text, outcome, started_at from delivery_attempts',
      ),
    ]);
  const [accounts, payouts, deposits, accountIds] = await Promise.all([
    q<Snapshot['accounts'][number]>(db.sandbox, 'select order_ref, status, clabe from virtual_accounts'),
    q<Snapshot['payouts'][number]>(db.sandbox, 'select payout_ref, status from payouts'),
    q<Snapshot['deposits'][number]>(db.sandbox, 'select clabe, matched, account_id from deposits'),
    q<Snapshot['accountIds'][number]>(db.sandbox, 'select id, order_ref from virtual_accounts'),
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
  };
}
