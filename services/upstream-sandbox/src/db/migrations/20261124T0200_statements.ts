import { type Kysely, sql } from 'kysely';

// The daily statement (CONTRACT.md section 14): every movement gets a SPEI tracking key when it happens,
// deposits carry their sender, and the tester's statement triggers are stored with the movement they change.

/** A key for a row that moved money before keys existed: derived from its id, so it is stable. */
const backfillKey = (prefix: string, at: string, id: string) =>
  sql`${sql.lit(prefix)} || to_char(${sql.ref(at)} at time zone 'America/Mexico_City', 'YYYYMMDD') || upper(substr(md5(${sql.ref(id)}), 1, 16))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('deposits')
    .addColumn('clave_rastreo', 'text')
    .addColumn('sender_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
    // The amount the statement shows instead of the real one (a tester's trigger); null: the real one.
    .addColumn('statement_amount', 'bigint')
    .execute();
  await sql`update deposits set clave_rastreo = ${backfillKey('SBXD', 'created_at', 'id')}`.execute(db);
  await sql`alter table deposits alter column clave_rastreo set not null,
    add constraint deposits_clave_rastreo_length check (char_length(clave_rastreo) between 1 and 30)`.execute(
    db,
  );
  await db.schema
    .createIndex('deposits_clave_rastreo')
    .on('deposits')
    .column('clave_rastreo')
    .unique()
    .execute();
  // The statement's keyset order within a day.
  await db.schema.createIndex('deposits_statement').on('deposits').columns(['created_at', 'id']).execute();

  await db.schema
    .alterTable('payouts')
    // Set when the money leaves (the payout succeeds) and when it comes back (returned): two movements.
    .addColumn('clave_rastreo', 'text')
    .addColumn('return_clave_rastreo', 'text')
    // Tester's triggers from the payee name: the channel forgets the payout on its statement, or shows
    // another amount for it.
    .addColumn('statement_omit', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('statement_amount', 'bigint')
    .execute();
  await sql`update payouts set clave_rastreo = ${backfillKey('SBXP', 'finished_at', 'id')}
    where status in ('succeeded', 'returned')`.execute(db);
  await sql`update payouts set return_clave_rastreo = ${backfillKey('SBXR', 'returned_at', 'id')}
    where status = 'returned'`.execute(db);
  await sql`alter table payouts
    add constraint payouts_clave_rastreo_length check (char_length(clave_rastreo) between 1 and 30),
    add constraint payouts_return_clave_rastreo_length check (char_length(return_clave_rastreo) between 1 and 30),
    add constraint payouts_moved_has_key check (status not in ('succeeded', 'returned') or clave_rastreo is not null),
    add constraint payouts_returned_has_key check (status <> 'returned' or return_clave_rastreo is not null)`.execute(
    db,
  );
  await db.schema
    .createIndex('payouts_clave_rastreo')
    .on('payouts')
    .column('clave_rastreo')
    .unique()
    .execute();
  await db.schema
    .createIndex('payouts_return_clave_rastreo')
    .on('payouts')
    .column('return_clave_rastreo')
    .unique()
    .execute();
  await db.schema
    .createIndex('payouts_statement_out')
    .on('payouts')
    .columns(['finished_at', 'id'])
    .where(sql.ref('clave_rastreo'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('payouts_statement_return')
    .on('payouts')
    .columns(['returned_at', 'id'])
    .where(sql.ref('return_clave_rastreo'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'payouts_statement_return',
    'payouts_statement_out',
    'payouts_return_clave_rastreo',
    'payouts_clave_rastreo',
    'deposits_statement',
    'deposits_clave_rastreo',
  ])
    await db.schema.dropIndex(index).ifExists().execute();
  await sql`alter table payouts
    drop constraint if exists payouts_clave_rastreo_length,
    drop constraint if exists payouts_return_clave_rastreo_length,
    drop constraint if exists payouts_moved_has_key,
    drop constraint if exists payouts_returned_has_key`.execute(db);
  await db.schema
    .alterTable('payouts')
    .dropColumn('clave_rastreo')
    .dropColumn('return_clave_rastreo')
    .dropColumn('statement_omit')
    .dropColumn('statement_amount')
    .execute();
  await sql`alter table deposits drop constraint if exists deposits_clave_rastreo_length`.execute(db);
  await db.schema
    .alterTable('deposits')
    .dropColumn('clave_rastreo')
    .dropColumn('sender_account')
    .dropColumn('sender_name')
    .dropColumn('statement_amount')
    .execute();
}
