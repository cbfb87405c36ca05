// Fills a stopped stack's databases to production-like volume, in SQL (generate_series), for the growth part
// of the bench (bench/growth.ts). Every count is scaled by `scale` (GROWTH_SCALE). Rows are what the
// services write: valid statuses and versions, numbers in the services' formats from their own sequences,
// timestamps spread over months, uniques respected, and a ledger whose postings balance and whose running
// balances continue what the run booked before (so the ledger's Check passes). Each store keeps what its
// retention job would leave: published outbox rows of the last 7 days, callback attempts of the last 30
// days, notices of the last 90 days, nonces of the last 24 hours.
//
// Secondary indexes are dropped before a table is filled and rebuilt after (as a restore would), which is
// many times faster than maintaining them row by row; constraint indexes (keys, uniques) stay.
import { performance } from 'node:perf_hooks';
import { noticeSubject, statusChangedSubject } from '@agentpay/messaging';
import pg from 'pg';

export type Store = 'payments' | 'transfers' | 'router' | 'notifier' | 'gateway' | 'ledger';

export interface FillOptions {
  scale: number;
  /** Each store's database URL. */
  urls: Record<Store, string>;
  /** The bench merchant: it owns a share of the orders and is the ledger's hot merchant. */
  benchMchNo: string;
  /** The stack's events subject prefix, for the outbox rows' subjects. */
  subjectPrefix: string;
  log: (line: string) => void;
}

/** Merchants the filled rows belong to: the bench merchant and GM00001… */
export const MERCHANTS = 1000;

/** What a fill wrote: rows per table and how long the store took. */
export interface FillReport {
  store: Store;
  seconds: number;
  rows: Record<string, number>;
}

/** The counts at scale 1, from the issue (22). */
export function volumes(scale: number) {
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  return {
    payOrders: n(10_000_000),
    openOrders: n(1_000_000),
    payOutbox: n(1_000_000),
    transfers: n(2_000_000),
    transfersInProgress: n(2_000),
    transferOutbox: n(200_000),
    notices: n(2_000_000),
    routerOutbox: n(500_000),
    deliveries: n(5_000_000),
    nonces: n(1_000_000),
    entries: n(5_000_000),
    hotEntries: n(1_000_000),
  };
}

// A deterministic spread of g over 0..2^32-1 (Knuth's multiplicative hash), for statuses and amounts.
// (Reduced mod 2^31 first, so the product stays within bigint.)
const h = (expr: string) => `(((${expr})::bigint % 2147483648) * 2654435761 % 4294967296)`;
// The merchant of row g: the bench merchant (index 0) or GM<index>.
const mch = (idx: string, bench: string) =>
  `(case when ${idx} = 0 then '${bench}' else 'GM' || lpad((${idx})::text, 5, '0') end)`;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-growth-fill' });
  await client.connect();
  await client.query(
    `set synchronous_commit = off; set maintenance_work_mem = '256MB'; set work_mem = '64MB'`,
  );
  return client;
}

/** Drops `tables`' secondary indexes, runs `fill`, and builds them again with their own definitions. */
async function withoutSecondaryIndexes(
  client: pg.Client,
  tables: string[],
  fill: () => Promise<void>,
): Promise<void> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i
     where i.indrelid = any($1::regclass[])
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const { name } of rows) await client.query(`drop index ${name}`);
  await fill();
  for (const { def } of rows) await client.query(def);
}

async function count(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
  return Number(rows[0]!.n);
}

async function timed(
  store: Store,
  url: string,
  tables: string[],
  fill: (client: pg.Client) => Promise<void>,
): Promise<FillReport> {
  const client = await connect(url);
  const started = performance.now();
  try {
    await withoutSecondaryIndexes(client, tables, () => fill(client));
    const rows: Record<string, number> = {};
    for (const table of tables) rows[table] = await count(client, table);
    return { store, seconds: (performance.now() - started) / 1000, rows };
  } finally {
    await client.end();
  }
}

export function fillPayments(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  const n = v.payOrders;
  // Orders are created evenly over 180 days; of those of the last 30 days, enough stay open (wait, a tenth
  // progress) to make `openOrders`, each expiring 30 days after creation: expiries spread over the next 30
  // days. The rest ended: success (70 %), timeout, close, cancel, fail, one status change each.
  const recent = Math.ceil(n / 6);
  const openEvery = Math.min(1, v.openOrders / recent);
  return timed(
    'payments',
    o.urls.payments,
    ['pay_orders', 'pay_order_status_history', 'outbox'],
    async (c) => {
      await c.query(`
      insert into pay_orders (order_no, mch_no, biz_order_no, title, method, amount, fee, real_amount, status,
        settle_status, settle_type, settle_time, pay_time, paid_amount, close_time, expired_time, notify_url,
        client_ip, pay_body, route_id, upstream_ref, fingerprint, version, created_at, updated_at, opened_at)
      select 'P' || to_char(created at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('pay_order_no_seq')::text, 12, '0'),
        ${mch('idx', o.benchMchNo)}, 'G' || g, 'Order ' || g, 'mex_virtual_account', amount, amount / 100,
        amount - amount / 100, status,
        case when status = 'success' and created < now() - interval '2 days' then 'settled' else 'not_settle' end,
        'D+1',
        case when status = 'success' and created < now() - interval '2 days' then created + interval '1 day' end,
        case when status = 'success' then created + interval '10 minutes' end,
        case when status = 'success' then amount end,
        case when status in ('close', 'cancel', 'fail') then created + interval '1 hour'
             when status = 'timeout' then created + interval '30 days' end,
        created + interval '30 days',
        'https://m' || idx || '.example.mx/agentpay/notify', '189.203.' || (g % 250) || '.' || (g % 199),
        '{"clabe":"646180' || lpad((g % 1000000000000)::text, 12, '0') || '","bank":"STP","beneficiary":"AGENTPAY"}',
        'sandbox-default', 'SBX' || g, md5(g::text) || md5('f' || g), version, created,
        created + case when version = 1 then interval '0' else interval '10 minutes' end, created + interval '1 second'
      from (
        select g, idx, created, amount,
          case when open and r % 10 = 0 then 'progress' when open then 'wait'
               when r % 100 < 70 then 'success' when r % 100 < 85 then 'timeout'
               when r % 100 < 93 then 'close' when r % 100 < 97 then 'cancel' else 'fail' end as status,
          case when open and r % 10 <> 0 then 1 else 2 end as version
        from (
          select g, ${h('g + 7')} % ${MERCHANTS} as idx, r, 1000 + r % 500000 as amount,
            now() - interval '180 days' + (g::float8 / ${n}) * interval '180 days' - interval '1 minute' as created,
            g > ${n - recent} and (r % 1000) < ${Math.round(openEvery * 1000)} as open
          from (select g, ${h('g')} as r from generate_series(1, ${n}) g) s
        ) t
      ) u`);
      // Every history row is of an order just inserted: the foreign key's per-row check (most of the time
      // of this insert) is skipped for it, as pg_restore does.
      await c.query(`set session_replication_role = replica`);
      await c.query(`
      insert into pay_order_status_history (order_no, from_status, to_status, version, cause, event_id, created_at)
      select order_no, 'wait', status, 2,
        case status when 'timeout' then 'expiry' when 'close' then 'merchant' when 'cancel' then 'merchant' else 'upstream' end,
        gen_random_uuid(), updated_at
      from pay_orders where version = 2 and biz_order_no like 'G%'`);
      await c.query(`set session_replication_role = origin`);
      await c.query(`
      insert into outbox (id, subject, payload, created_at, published_at, attempts)
      select gen_random_uuid(), '${statusChangedSubject(o.subjectPrefix, 'pay')}',
        jsonb_build_object('event_id', gen_random_uuid(), 'mch_no', 'GM00001', 'kind', 'pay',
          'order_no', 'P20261120000000' || lpad(g::text, 12, '0'), 'from_status', 'wait', 'to_status', 'success',
          'version', '2', 'occurred_at', at, 'notify_url', 'https://m1.example.mx/agentpay/notify', 'traceparent', '',
          'pay_order', jsonb_build_object('order_no', 'P20261120000000' || lpad(g::text, 12, '0'),
            'biz_order_no', 'G' || g, 'mch_no', 'GM00001', 'title', 'Order ' || g, 'method', 'mex_virtual_account',
            'amount', '10050', 'fee', '100', 'real_amount', '9950', 'status', 'success', 'settle_status', 'not_settle',
            'settle_type', 'D+1', 'pay_time', at, 'expired_time', at + interval '30 days', 'version', '2')),
        at, at + interval '40 milliseconds', 1
      from (select g, now() - interval '7 days' + (g::float8 / ${v.payOutbox}) * interval '7 days' - interval '1 minute' as at
            from generate_series(1, ${v.payOutbox}) g) s`);
    },
  );
}

function fillTransfers(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  const n = v.transfers;
  // Transfers over 180 days: success 95 %, fail 5 %; the last `transfersInProgress` still in progress, each
  // checked by reconciliation within the last few minutes (so not due again).
  return timed('transfers', o.urls.transfers, ['transfers', 'outbox'], async (c) => {
    await c.query(`
      insert into transfers (transfer_no, mch_no, biz_transfer_no, amount, fee, title, reason, payee_type,
        payee_account, payee_name, notify_url, client_ip, status, submission, route_id, upstream_ref, fingerprint,
        version, finish_time, checked_at, created_at, updated_at)
      select 'T' || to_char(created at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('transfer_no_seq')::text, 12, '0'),
        ${mch('idx', o.benchMchNo)}, 'GT' || g, 1000 + r % 2000000, 500, 'Payout ' || g, 'supplier', 'spei_transfer',
        '002180' || lpad((r % 1000000000000)::text, 12, '0'), 'Ana Perez ' || (g % 997),
        'https://m' || idx || '.example.mx/agentpay/notify', '10.0.' || (g % 250) || '.' || (g % 199), status,
        'accepted', 'sandbox-default', 'SBXT' || g, md5(g::text) || md5('t' || g),
        case when status = 'progress' then 1 else 2 end,
        case when status <> 'progress' then created + interval '3 minutes' end,
        case when status = 'progress' then now() - (r % 240) * interval '1 second' end,
        created,
        case when status = 'progress' then created + interval '5 seconds' else created + interval '3 minutes' end
      from (
        select g, r, ${h('g + 11')} % ${MERCHANTS} as idx,
          case when g > ${n - v.transfersInProgress} then 'progress' when r % 100 < 95 then 'success' else 'fail' end as status,
          case when g > ${n - v.transfersInProgress} then now() - interval '2 days' + ((g - ${n - v.transfersInProgress})::float8 / ${v.transfersInProgress}) * interval '1 day'
               else now() - interval '180 days' + (g::float8 / ${n}) * interval '178 days' end as created
        from (select g, ${h('g')} as r from generate_series(1, ${n}) g) s
      ) t`);
    await c.query(`
      insert into outbox (id, subject, payload, created_at, published_at, attempts)
      select gen_random_uuid(), '${statusChangedSubject(o.subjectPrefix, 'transfer')}',
        jsonb_build_object('event_id', gen_random_uuid(), 'mch_no', 'GM00001', 'kind', 'transfer',
          'order_no', 'T20261120000000' || lpad(g::text, 12, '0'), 'from_status', 'progress', 'to_status', 'success',
          'version', '2', 'occurred_at', at, 'notify_url', 'https://m1.example.mx/agentpay/notify', 'traceparent', ''),
        at, at + interval '40 milliseconds', 1
      from (select g, now() - interval '7 days' + (g::float8 / ${v.transferOutbox}) * interval '7 days' - interval '1 minute' as at
            from generate_series(1, ${v.transferOutbox}) g) s`);
  });
}

function fillRouter(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  return timed('router', o.urls.router, ['upstream_notices', 'outbox'], async (c) => {
    await c.query(`
      insert into upstream_notices (route_id, notice_id, kind, ref, status, payload, received_at, deliveries)
      select 'sandbox-default', 'N' || lpad(g::text, 12, '0'), case when g % 6 = 0 then 'payout' else 'payment' end,
        'SBX' || g, case when g % 20 = 0 then 'failed' else 'success' end,
        jsonb_build_object('noticeId', 'N' || lpad(g::text, 12, '0'), 'ref', 'SBX' || g, 'status', 'success',
          'amount', 1000 + g % 500000, 'paidAt', at, 'payer', jsonb_build_object('clabe', '012180' || lpad((g % 1000000000000)::text, 12, '0'), 'name', 'Cliente ' || (g % 997))),
        at, 1 + (g % 50 = 0)::int
      from (select g, now() - interval '90 days' + (g::float8 / ${v.notices}) * interval '90 days' - interval '1 minute' as at
            from generate_series(1, ${v.notices}) g) s`);
    await c.query(`
      insert into outbox (id, subject, payload, created_at, published_at, attempts)
      select gen_random_uuid(), '${noticeSubject(o.subjectPrefix, 'payment')}',
        jsonb_build_object('routeId', 'sandbox-default', 'noticeId', 'N' || lpad(g::text, 12, '0'), 'kind', 'payment',
          'ref', 'SBX' || g, 'status', 'success', 'amount', '10050', 'occurredAt', at),
        at, at + interval '40 milliseconds', 1
      from (select g, now() - interval '7 days' + (g::float8 / ${v.routerOutbox}) * interval '7 days' - interval '1 minute' as at
            from generate_series(1, ${v.routerOutbox}) g) s`);
  });
}

function fillGateway(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  // The other merchants (without keys: nothing signs as them), and a day of nonces (NONCE_TTL_S).
  return timed('gateway', o.urls.gateway, ['merchants', 'nonces'], async (c) => {
    await c.query(`
      insert into merchants (mch_no, name, status, fee_percent_bps, settle_type, created_at, updated_at)
      select 'GM' || lpad(i::text, 5, '0'), 'Merchant ' || i, 'enabled', 100, 'D+1',
        now() - interval '400 days' + i * interval '6 hours', now() - interval '30 days'
      from generate_series(1, ${MERCHANTS - 1}) i
      on conflict do nothing`);
    await c.query(`
      insert into nonces (mch_no, nonce, expires_at)
      select ${mch(`${h('g + 3')} % ${MERCHANTS}`, o.benchMchNo)}, md5('n' || g)::text,
        now() + (g::float8 / ${v.nonces}) * interval '24 hours'
      from generate_series(1, ${v.nonces}) g
      on conflict do nothing`);
  });
}

function fillNotifier(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  const n = v.deliveries;
  // Deliveries over 180 days, one endpoint per merchant: succeeded (95 %), failed after its retries (3 %),
  // superseded, skipped, and a few pending retries due in the next hours (none due now). Attempts are kept
  // for the last 30 days only (CALLBACK_ATTEMPT_RETENTION_DAYS): one per succeeded delivery, a tenth of
  // which failed once first; eight for a failed one.
  return timed('notifier', o.urls.notifier, ['deliveries', 'delivery_attempts'], async (c) => {
    await c.query(`
      insert into deliveries (id, event_id, kind, mch_no, order_no, version, from_status, to_status, occurred_at,
        notify_url, endpoint, trace_id, body, status, attempt_count, round_attempts, next_attempt_at,
        last_http_status, last_error, delivered_at, created_at, updated_at)
      select gen_random_uuid(), gen_random_uuid()::text, kind, ${mch('idx', o.benchMchNo)}, order_no, 2,
        case when kind = 'pay' then 'wait' else 'progress' end, 'success', created,
        'https://m' || idx || '.example.mx/agentpay/notify', 'm' || idx || '.example.mx:443',
        md5('t' || g), '{"code":0,"msg":"success","sign":"' || md5(order_no) || md5('s' || g) || md5('x' || g)
          || '","data":{"orderNo":"' || order_no || '","bizOrderNo":"G' || g || '","state":2,"amount":100.50,'
          || '"fee":1.00,"realAmount":99.50,"successTime":"' || created || '","version":2}}',
        status, attempts, case when status = 'pending' then attempts else 0 end,
        case when status = 'pending' then now() + (1 + r % 360) * interval '1 minute' end,
        case when status = 'succeeded' then 200 when status in ('failed', 'pending') then 503 end,
        case when status in ('failed', 'pending') then 'HTTP 503' end,
        case when status = 'succeeded' then created + interval '80 milliseconds' end,
        created, created + interval '80 milliseconds'
      from (
        select g, r, idx, created, order_no, kind, status,
          case status when 'succeeded' then 1 + (r % 10 = 0)::int when 'failed' then 8 when 'pending' then 1 + r % 3 else 0 end as attempts
        from (
          select g, r, ${h('g + 5')} % ${MERCHANTS} as idx,
            case when r % 1000 < 5 then now() - (r % 60) * interval '1 minute'
                 else now() - interval '180 days' + (g::float8 / ${n}) * interval '180 days' - interval '1 hour' end as created,
            case when r % 100 < 85 then 'pay' else 'transfer' end as kind,
            case when r % 100 < 85 then 'P' else 'T' end || '20261120000000' || lpad(g::text, 12, '0') as order_no,
            case when r % 1000 < 5 then 'pending' when r % 1000 < 955 then 'succeeded' when r % 1000 < 985 then 'failed'
                 when r % 1000 < 995 then 'superseded' else 'skipped' end as status
          from (select g, ${h('g')} as r from generate_series(1, ${n}) g) s
        ) t
      ) u`);
    await c.query(`
      insert into delivery_attempts (delivery_id, number, worker, started_at, finished_at, outcome, http_status,
        latency_ms, response_excerpt, error)
      select d.id, a, 'notifier-0', d.created_at + (a - 1) * interval '1 minute' + interval '10 milliseconds',
        d.created_at + (a - 1) * interval '1 minute' + interval '70 milliseconds',
        case when d.status = 'succeeded' and a = d.attempt_count then 'succeeded' else 'failed' end,
        case when d.status = 'succeeded' and a = d.attempt_count then 200 else 503 end, 60,
        case when d.status = 'succeeded' and a = d.attempt_count then 'SUCCESS' else 'Service Unavailable' end,
        case when d.status = 'succeeded' and a = d.attempt_count then null else 'HTTP 503' end
      from deliveries d cross join lateral generate_series(1, d.attempt_count) a
      where d.created_at > now() - interval '30 days' and d.attempt_count > 0`);
  });
}

function fillLedger(o: FillOptions): Promise<FillReport> {
  const v = volumes(o.scale);
  const n = v.entries;
  // One entry in five is the bench merchant's (the hot account, `hotEntries` of them); the others spread over
  // 999 merchants. Each merchant's entries follow a cycle of ten: four pay-ins (D+1, to pending), their four
  // settlements (pending to available), a payout's freeze (available to frozen, 30.30 MXN, always covered by
  // the settlements before it) and its transfer_out. A merchant's last pay-ins may be unsettled: due in the
  // next days, beyond the 73 hours the bench's settlement round takes (that round settles the bench merchant's
  // own pay-ins of the measured run, as on the empty stores). Balances continue from whatever the run booked before (entries and accounts as they are).
  const every = Math.round(n / v.hotEntries);
  return timed(
    'ledger',
    o.urls.ledger,
    ['entries', 'postings', 'accounts', 'pay_ins', 'holds'],
    async (c) => {
      await c.query(`create temp table fill_entries as
      select g, (select coalesce(max(id), 0) from entries) + g as id,
        case when g % ${every} = 0 then 0 else 1 + ${h('g')} % ${MERCHANTS - 1} end as idx,
        now() - interval '180 days' + (g::float8 / ${n}) * interval '180 days' - interval '10 minutes' as created
      from generate_series(1, ${n}) g`);
      await c.query(`create temp table fill_plan as
      select id, idx, ${mch('idx', o.benchMchNo)} as mch, created, pos, (pos - 1) % 10 as c, (pos - 1) / 10 as k,
        max(pos) over (partition by idx) as last
      from (select *, row_number() over (partition by idx order by id) as pos from fill_entries) x`);
      // Each entry's kind, figures and changes; a settlement's figures are its pay-in's (four entries earlier).
      await c.query(`create temp table fill_rows as
      select p.*, case when c < 4 then 'pay_in' when c < 8 then 'settle' when c = 8 then 'transfer_freeze' else 'transfer_out' end as type,
        'PL' || lpad(idx::text, 4, '0') || lpad((case when c between 4 and 7 then pos - 4 else pos end)::text, 10, '0') as order_no,
        'TL' || lpad(idx::text, 4, '0') || lpad(k::text, 9, '0') as transfer_no,
        1000 + ${h(`idx * 100000000 + case when c between 4 and 7 then pos - 4 else pos end`)} % 500000 as amount
      from fill_plan p`);
      await c.query(`alter table fill_rows add column fee bigint, add column real bigint,
      add column da bigint, add column dp bigint, add column df bigint`);
      await c.query(`update fill_rows set fee = case when c < 4 then amount / 100 when c >= 8 then 30 else 0 end,
      amount = case when c >= 8 then 3000 else amount end`);
      await c.query(`update fill_rows set real = amount - amount / 100,
      da = case when c between 4 and 7 then amount - amount / 100 when c = 8 then -3030 else 0 end,
      dp = case when c < 4 then amount - amount / 100 when c between 4 and 7 then -(amount - amount / 100) else 0 end,
      df = case when c = 8 then 3030 when c = 9 then -3030 else 0 end`);
      // The balances each merchant had before: its last entry's.
      await c.query(`create temp table fill_base as
      select distinct on (mch_no) mch_no, available_after, pending_after, frozen_after from entries order by mch_no, id desc`);
      await c.query(`
      insert into entries (id, key, type, mch_no, order_no, biz_order_no, transfer_no, biz_transfer_no, amount, fee,
        available_change, pending_change, frozen_change, available_after, pending_after, frozen_after, created_at)
      overriding system value
      select r.id, case when type in ('pay_in', 'settle') then type || ':' || order_no else type || ':' || transfer_no end,
        type, mch, case when c < 8 then order_no end, case when c < 8 then 'G' || order_no end,
        case when c >= 8 then transfer_no end, case when c >= 8 then 'B' || transfer_no end,
        case when c between 4 and 7 then real else amount end, case when c between 4 and 7 then 0 else fee end,
        da, dp, df,
        coalesce(b.available_after, 0) + sum(da) over w, coalesce(b.pending_after, 0) + sum(dp) over w,
        coalesce(b.frozen_after, 0) + sum(df) over w, created
      from fill_rows r left join fill_base b on b.mch_no = r.mch
      window w as (partition by r.idx order by r.id)`);
      await c.query(`create temp table fill_moves as
      select id as entry_id, 'clearing:sandbox-default' as account, -amount as amount from fill_rows where c < 4
      union all select id, 'mch:' || mch || ':pending', real from fill_rows where c < 4
      union all select id, 'fee_revenue', fee from fill_rows where c < 4
      union all select id, 'mch:' || mch || ':pending', -real from fill_rows where c between 4 and 7
      union all select id, 'mch:' || mch || ':available', real from fill_rows where c between 4 and 7
      union all select id, 'mch:' || mch || ':available', -3030 from fill_rows where c = 8
      union all select id, 'mch:' || mch || ':frozen', 3030 from fill_rows where c = 8
      union all select id, 'mch:' || mch || ':frozen', -3030 from fill_rows where c = 9
      union all select id, 'clearing:default', 3000 from fill_rows where c = 9
      union all select id, 'fee_revenue', 30 from fill_rows where c = 9`);
      await c.query(`
      insert into postings (entry_id, account, amount, balance_after)
      select m.entry_id, m.account, m.amount, coalesce(a.balance, 0) + sum(m.amount) over (partition by m.account order by m.entry_id)
      from fill_moves m left join accounts a on a.id = m.account`);
      await c.query(`
      insert into accounts (id, kind, mch_no, balance, postings)
      select account,
        case when account like 'mch:%' then split_part(account, ':', 3) when account like 'clearing:%' then 'clearing' else account end,
        case when account like 'mch:%' then split_part(account, ':', 2) end, sum(amount), count(*)
      from fill_moves group by account
      on conflict (id) do update set balance = accounts.balance + excluded.balance, postings = accounts.postings + excluded.postings`);
      await c.query(`
      insert into pay_ins (order_no, mch_no, biz_order_no, real_amount, settle_type, pay_time, due_at, settled_at)
      select p.order_no, p.mch, 'G' || p.order_no, p.real, 'D+1', p.created,
        case when s.id is null then now() + interval '74 hours' + (${h('p.id')} % 5760) * interval '1 minute' else p.created + interval '1 day' end,
        s.created
      from fill_rows p left join fill_rows s on s.idx = p.idx and s.pos = p.pos + 4 and s.c between 4 and 7
      where p.c < 4`);
      await c.query(`
      insert into holds (transfer_no, mch_no, biz_transfer_no, amount, fee, status, created_at, updated_at)
      select f.transfer_no, f.mch, 'B' || f.transfer_no, 3000, 30, case when o.id is null then 'frozen' else 'out' end,
        f.created, coalesce(o.created, f.created)
      from fill_rows f left join fill_rows o on o.idx = f.idx and o.pos = f.pos + 1
      where f.c = 8`);
      // Later bookings take the next ids.
      await c.query(`select setval(pg_get_serial_sequence('entries', 'id'), (select max(id) from entries))`);
    },
  );
}

/**
 * Fills every store, two at a time (two connections: the machine has two cores and is shared), the
 * largest first; then VACUUM (ANALYZE) each, as autovacuum would have by the time such a table is in use.
 */
export async function fillStores(o: FillOptions): Promise<FillReport[]> {
  const reports: FillReport[] = [];
  const run = async (fill: (o: FillOptions) => Promise<FillReport>) => {
    const report = await fill(o);
    o.log(
      `filled ${report.store} in ${report.seconds.toFixed(0)} s: ${Object.entries(report.rows)
        .map(([t, r]) => `${t} ${r}`)
        .join(', ')}`,
    );
    reports.push(report);
  };
  const lanes = [
    [fillPayments, fillTransfers, fillGateway],
    [fillLedger, fillNotifier, fillRouter],
  ];
  await Promise.all(
    lanes.map(async (lane) => {
      for (const fill of lane) await run(fill);
    }),
  );
  for (const store of Object.keys(o.urls) as Store[]) {
    const client = await connect(o.urls[store]);
    const started = performance.now();
    await client.query('vacuum (analyze)');
    o.log(`vacuumed and analyzed ${store} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await client.end();
  }
  return reports;
}
