import { type Kysely, sql } from 'kysely';

// Refunds of paid orders (CONTRACT section 21) are payouts of kind `refund`: a transfer row with the order it
// returns money of. The merchant's bizTransferNo and bizRefundNo are separate namespaces, so the idempotency
// key gains the kind (the constraint keeps its name: inserts name it in ON CONFLICT).
//
// refund_allowances holds, per refunded order, what it paid and what its live refunds take. A refund reserves
// its amount there in the transaction that inserts it (row lock; the check makes "more than was paid"
// impossible whatever the code does), and the trigger gives it back whenever the refund ends without money
// leaving for good: its submission withdrawn (the row deleted while `submitting`), or its status becoming
// `fail` or `close` (a rejected payout, or one the receiving bank returned). One place, every path.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers
    add column if not exists kind text not null default 'transfer' check (kind in ('transfer', 'refund')),
    add column if not exists order_no text not null default '',
    add column if not exists biz_order_no text not null default '',
    add column if not exists cep_url text not null default '',
    add column if not exists sender_bank text not null default ''`.execute(db);
  await sql`alter table transfers drop constraint transfers_mch_biz_key,
    add constraint transfers_mch_biz_key unique (mch_no, biz_transfer_no, kind)`.execute(db);
  await sql`create index if not exists transfers_refund_order_idx on transfers (order_no) where kind = 'refund'`.execute(
    db,
  );
  await sql`create table refund_allowances (
    order_no text primary key,
    mch_no text not null,
    paid bigint not null check (paid > 0),
    refunded bigint not null default 0,
    constraint refund_allowances_within_paid check (refunded >= 0 and refunded <= paid),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create function release_refund_allowance() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.kind = 'refund' and old.status = 'submitting' then
          update refund_allowances set refunded = refunded - old.amount where order_no = old.order_no;
        end if;
        return old;
      end if;
      if new.kind = 'refund' and new.status in ('fail', 'close') and old.status not in ('fail', 'close') then
        update refund_allowances set refunded = refunded - new.amount where order_no = new.order_no;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger transfers_refund_release after update of status or delete on transfers
    for each row execute function release_refund_allowance()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists transfers_refund_release on transfers`.execute(db);
  await sql`drop function if exists release_refund_allowance()`.execute(db);
  await sql`drop table if exists refund_allowances`.execute(db);
  await sql`delete from transfers where kind = 'refund'`.execute(db);
  await sql`alter table transfers drop constraint transfers_mch_biz_key,
    add constraint transfers_mch_biz_key unique (mch_no, biz_transfer_no)`.execute(db);
  await sql`alter table transfers drop column kind, drop column order_no, drop column biz_order_no,
    drop column cep_url, drop column sender_bank`.execute(db);
}
