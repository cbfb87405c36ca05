import { type Kysely, sql } from 'kysely';

// The compliance store. Screening reads list_entries through a trigram GIN index on the folded name (pg_trgm's
// `%` operator with a transaction-local similarity threshold), and RFC/CURP through plain btrees, each
// restricted to versions in effect: screening 1,000,000 entries stays a few index probes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create table if not exists lists (
    id text primary key,
    name text not null unique,
    kind text not null check (kind in ('blocked', 'watch')),
    hit_threshold real not null default 0.90 check (hit_threshold > 0 and hit_threshold <= 1),
    review_threshold real not null default 0.80 check (review_threshold > 0 and review_threshold <= hit_threshold),
    created_by text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table if not exists list_versions (
    id text primary key,
    list_id text not null references lists (id),
    version int not null,
    state text not null check (state in ('pending', 'effective', 'superseded')),
    format text not null,
    entries int not null,
    uploaded_by text not null,
    approved_by text,
    approval_id text,
    created_at timestamptz not null default now(),
    effective_at timestamptz,
    unique (list_id, version)
  )`.execute(db);
  // At most one version of a list in effect, whatever two approvals race.
  await sql`create unique index if not exists list_versions_one_effective
    on list_versions (list_id) where state = 'effective'`.execute(db);
  await sql`create table if not exists list_entries (
    id bigserial primary key,
    version_id text not null references list_versions (id),
    list_id text not null,
    name text not null,
    folded text not null,
    rfc text not null default '',
    curp text not null default '',
    birth_date text not null default '',
    country text not null default '',
    reference text not null default ''
  )`.execute(db);
  await sql`create index if not exists list_entries_folded_trgm
    on list_entries using gin (folded gin_trgm_ops)`.execute(db);
  await sql`create index if not exists list_entries_rfc on list_entries (rfc) where rfc <> ''`.execute(db);
  await sql`create index if not exists list_entries_curp on list_entries (curp) where curp <> ''`.execute(db);
  await sql`create index if not exists list_entries_version on list_entries (version_id)`.execute(db);

  await sql`create table if not exists cases (
    id text primary key,
    kind text not null check (kind in ('screening', 'rule')),
    state text not null check (state in ('open', 'held', 'released', 'rejected', 'closed')),
    unique_key text not null unique,
    mch_no text not null,
    subject jsonb not null,
    list_id text,
    list_kind text,
    entry jsonb,
    score real,
    rule text,
    figures jsonb,
    holds_payout boolean not null default false,
    decision text,
    outcome text,
    reason text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    closed_at timestamptz
  )`.execute(db);
  await sql`create index if not exists cases_state_created on cases (state, created_at desc, id)`.execute(db);
  await sql`create index if not exists cases_created on cases (created_at desc, id)`.execute(db);
  await sql`create table if not exists case_operations (
    case_id text not null references cases (id),
    kind text not null,
    ref text not null,
    at timestamptz not null,
    mch_no text not null,
    amount bigint not null,
    currency text not null default 'MXN',
    name text not null default '',
    account text not null default '',
    bank text not null default '',
    rfc_curp text not null default '',
    clave_rastreo text not null default '',
    primary key (case_id, kind, ref)
  )`.execute(db);
  await sql`create table if not exists case_events (
    id bigserial primary key,
    case_id text not null references cases (id),
    at timestamptz not null default now(),
    actor text not null,
    action text not null,
    text text not null default '',
    approval_id text
  )`.execute(db);
  await sql`create index if not exists case_events_case on case_events (case_id, id)`.execute(db);
  await sql`create table if not exists settings (
    id int primary key check (id = 1),
    rules jsonb not null,
    updated_by text not null,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table if not exists observed_operations (
    ref text primary key,
    kind text not null,
    mch_no text not null,
    amount bigint not null,
    counterparty text not null default '',
    at timestamptz not null
  )`.execute(db);
  await sql`create index if not exists observed_operations_mch_at on observed_operations (mch_no, at)`.execute(
    db,
  );
  await sql`create index if not exists observed_operations_counterparty_at
    on observed_operations (counterparty, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'observed_operations',
    'settings',
    'case_events',
    'case_operations',
    'cases',
    'list_entries',
    'list_versions',
    'lists',
  ])
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
