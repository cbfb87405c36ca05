import { type Kysely, sql } from 'kysely';

// The allowed (from, to) pairs of the state machine (pay-order.state-machine.ts) as they stood when
// this migration was written. The trigger below refuses any other status change, so not even a bug
// or a hand-written UPDATE can move an order along a forbidden edge. Change both together.
const TRANSITIONS: ReadonlyArray<[string, string]> = [
  ['wait', 'progress'],
  ['wait', 'success'],
  ['progress', 'success'],
  ['wait', 'close'],
  ['progress', 'close'],
  ['wait', 'cancel'],
  ['progress', 'cancel'],
  ['wait', 'fail'],
  ['progress', 'fail'],
  ['wait', 'timeout'],
  ['progress', 'timeout'],
  ['close', 'success'],
  ['cancel', 'success'],
  ['timeout', 'success'],
  ['fail', 'success'],
];

const STATUSES = sql`('wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // 12 digits: maxvalue makes an exhausted sequence fail loudly instead of lpad truncating numbers.
  await sql`create sequence pay_order_no_seq maxvalue 999999999999 no cycle`.execute(db);
  await db.schema
    .createTable('pay_orders')
    .addColumn('order_no', 'text', (c) =>
      c
        .primaryKey()
        .defaultTo(
          sql`'P' || to_char(now() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('pay_order_no_seq')::text, 12, '0')`,
        ),
    )
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('biz_order_no', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('limit_pay', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('real_amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ${STATUSES}`))
    .addColumn('settle_status', 'text', (c) =>
      c.notNull().defaultTo('not_settle').check(sql`settle_status in ('not_settle', 'settled')`),
    )
    .addColumn('settle_type', 'text', (c) => c.notNull())
    .addColumn('settle_time', 'timestamptz')
    .addColumn('pay_time', 'timestamptz')
    .addColumn('paid_amount', 'bigint')
    .addColumn('close_time', 'timestamptz')
    .addColumn('expired_time', 'timestamptz', (c) => c.notNull())
    .addColumn('attach', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notify_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('return_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('quit_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('extra_param', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('client_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pay_body', 'text')
    .addColumn('route_id', 'text')
    .addColumn('upstream_ref', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('opened_at', 'timestamptz')
    .addColumn('create_claim', 'uuid')
    .addColumn('create_claim_until', 'timestamptz')
    .addColumn('sweep_claim_until', 'timestamptz')
    .addUniqueConstraint('pay_orders_mch_no_biz_order_no_key', ['mch_no', 'biz_order_no'])
    .addCheckConstraint('pay_orders_real_amount_check', sql`real_amount = amount - fee`)
    .addCheckConstraint('pay_orders_opened_check', sql`opened_at is null or pay_body is not null`)
    .execute();
  // The expiry sweep reads only open orders by expiry; ended ones pile up and must not slow it.
  await sql`create index pay_orders_expiring_idx on pay_orders (expired_time)
    where status in ('wait', 'progress') and opened_at is not null`.execute(db);
  await sql`create index pay_orders_creating_idx on pay_orders (create_claim_until)
    where opened_at is null`.execute(db);

  await db.schema
    .createTable('pay_order_status_history')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('order_no', 'text', (c) => c.notNull().references('pay_orders.order_no').onDelete('cascade'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('cause', 'text', (c) => c.notNull().check(sql`cause in ('merchant', 'upstream', 'expiry')`))
    .addColumn('notice_id', 'text')
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('pay_order_status_history_order_version_key', ['order_no', 'version'])
    .execute();

  await db.schema
    .createTable('pay_order_transitions')
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pay_order_transitions_pk', ['from_status', 'to_status'])
    .execute();
  await db
    .withTables<{ pay_order_transitions: { from_status: string; to_status: string } }>()
    .insertInto('pay_order_transitions')
    .values(TRANSITIONS.map(([from_status, to_status]) => ({ from_status, to_status })))
    .execute();
  await sql`
    create function pay_orders_guard_transition() returns trigger language plpgsql as $$
    begin
      if new.status is distinct from old.status then
        if not exists (
          select 1 from pay_order_transitions where from_status = old.status and to_status = new.status
        ) then
          raise exception 'forbidden pay order transition % -> % (order %)', old.status, new.status, old.order_no
            using errcode = 'check_violation';
        end if;
        if new.version <> old.version + 1 then
          raise exception 'a status change must increment version (order %)', old.order_no
            using errcode = 'check_violation';
        end if;
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`create trigger pay_orders_guard_transition before update of status on pay_orders
    for each row execute function pay_orders_guard_transition()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists pay_orders_guard_transition on pay_orders`.execute(db);
  await sql`drop function if exists pay_orders_guard_transition()`.execute(db);
  for (const table of ['pay_order_transitions', 'pay_order_status_history', 'pay_orders']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`drop sequence if exists pay_order_no_seq`.execute(db);
}
