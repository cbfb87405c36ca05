import { type Kysely, sql } from 'kysely';

// ListSettlements (the console's settlements): each merchant's latest settled pay-in, one row read backwards
// per merchant of the page, however many pay-ins it has. Partial: only settled pay-ins are asked for.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists pay_ins_settled_idx on pay_ins (mch_no, settled_at)
    where settled_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists pay_ins_settled_idx`.execute(db);
}
