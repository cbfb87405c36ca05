import { type Kysely, sql } from 'kysely';

// Four eyes (services/gateway/README.md "Four eyes"): a request that moves money or changes who can move it
// waits here, exactly as it was made, until a second person approves or rejects it or it expires. The state
// changes are conditional updates (pending → approved | rejected | expired; approved → executed | failed), so
// two approvers clicking at once have one winner; `claimed_at` is when an execution last started, so the
// sweep takes over one a crash left behind, and only then.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending', 'approved', 'rejected', 'expired', 'executed', 'failed')`),
    )
    .addColumn('requested_by_id', 'text', (c) => c.notNull())
    .addColumn('requested_by_label', 'text', (c) => c.notNull())
    .addColumn('requested_by_roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('decided_by_id', 'text')
    .addColumn('decided_by_label', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'jsonb')
    .addColumn('executed_at', 'timestamptz')
    .addCheckConstraint(
      'approvals_second_person',
      // Approved (and what follows) only by a second person; the requester may withdraw (reject) their own.
      sql`state not in ('approved', 'executed', 'failed') or decided_by_id <> requested_by_id`,
    )
    .execute();
  await sql`create index approvals_state_idx on approvals (state, requested_at desc)`.execute(db);
  await sql`create index approvals_approved_idx on approvals (claimed_at) where state = 'approved'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('approvals').ifExists().execute();
}
