import { type Kysely, sql } from 'kysely';

// People instead of a shared token (services/gateway/README.md "People, roles and the audit log"): operator
// and merchant accounts, their browser sessions and personal tokens, and the append-only audit log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // '' for an operator; the merchant's number for one of its own people.
    .addColumn('mch_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('roles', sql`text[]`, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('invited', 'enabled', 'disabled')`))
    .addColumn('password_hash', 'text')
    .addColumn('totp_secret_enc', 'text')
    .addColumn('totp_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    // The last 30-second step whose code signed in: a code is accepted once (RFC 6238 section 5.2).
    .addColumn('totp_last_step', 'bigint')
    .addColumn('failed_signins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('invite_token_hash', 'text', (c) => c.unique())
    .addColumn('invite_expires_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Emails are unique per scope (the operators; each merchant), compared without case.
  await sql`create unique index users_scope_email_idx on users (mch_no, lower(email))`.execute(db);

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // SHA-256 of the cookie's value: a copy of the table signs nobody in.
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('user_sessions_user_idx').on('user_sessions').column('user_id').execute();

  await db.schema
    .createTable('personal_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('roles', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('personal_tokens_user_idx').on('personal_tokens').column('user_id').execute();

  // Append-only and hash-chained: `hash` = SHA-256 over `prev_hash` and the canonical JSON of the other
  // fields (identity/audit-log.ts). before/after are that canonical JSON as text, so the hash covers exactly
  // what is stored. No retention rule names this table: entries are kept for good (>= 400 days).
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('actor_via', 'text', (c) => c.notNull())
    .addColumn('actor_token_id', 'text')
    .addColumn('actor_roles', sql`text[]`, (c) => c.notNull())
    // The merchant whose people acted, or whose data was touched; null for the platform's own.
    .addColumn('mch_no', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('success', 'failure', 'denied')`))
    .addColumn('status', 'integer')
    .addColumn('reason', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('approval_id', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await sql`create sequence audit_log_id_seq owned by audit_log.id`.execute(db);
  for (const column of ['at', 'actor_id', 'action', 'target', 'mch_no']) {
    await sql`create index ${sql.raw(`audit_log_${column}_idx`)} on audit_log (${sql.ref(column)}, id)`.execute(
      db,
    );
  }
  await sql`
    create function audit_log_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only: % refused', tg_op;
    end $$`.execute(db);
  await sql`
    create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_refuse_change()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_refuse_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists audit_log`.execute(db);
  await sql`drop function if exists audit_log_refuse_change()`.execute(db);
  for (const table of ['personal_tokens', 'user_sessions', 'recovery_codes', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
