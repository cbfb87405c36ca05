import { createHash } from 'node:crypto';
import { csvCell, csvRow } from '@agentpay/http';
import { type Kysely, sql } from 'kysely';
import type { AuditLogRow, Database } from '../db/schema.js';
import type { Actor } from './actor.js';

/** What one audited event says; the log adds the time, its place in the chain and the hashes. */
export interface AuditEntry {
  /** `via` is the Actor's, or `invitation` / `sign_in` for the steps before a person has a session. */
  actor: Pick<Actor, 'id' | 'label' | 'roles' | 'ip' | 'userAgent'> & {
    via: string;
    tokenId?: string | undefined;
  };
  /** The permission table's action name, e.g. `merchant.update`, `session.create`, `approval.approve`. */
  action: string;
  /** What was acted on, `kind:id` (e.g. `merchant:M1001`, `user:<uuid>`). */
  target: string;
  outcome: 'success' | 'failure' | 'denied';
  /** The HTTP status answered, where the entry is a request. */
  status?: number | undefined;
  reason?: string | undefined;
  before?: unknown;
  after?: unknown;
  approvalId?: string | undefined;
  /** The merchant concerned (its people acting, or its data being touched). */
  mchNo?: string | undefined;
}

/** The audit log of CONTRACT.md section 17: append-only, one chain, several replicas appending. */
export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** A page of entries, newest first (listAudit). */
  list(filter: AuditFilter & { cursor?: string | undefined; limit: number }): ReturnType<typeof listAudit>;
  /** Every entry the filter selects, oldest first, for the CSV export (auditRows). */
  rows(filter: AuditFilter): AsyncGenerator<AuditLogRow>;
  /** Walks the chain (verifyAudit). */
  verify(): ReturnType<typeof verifyAudit>;
}

const GENESIS = '0'.repeat(64);
// pg_advisory_xact_lock key of the chain's tail: appends from every replica take their turn.
const CHAIN_LOCK = 0x61756469; // 'audi'

/** JSON with object keys sorted at every depth: the same value always serialises to the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

type Fields = Omit<AuditLogRow, 'prev_hash' | 'hash'>;

/** The entry's own hash: SHA-256 over the previous hash and the canonical JSON of its fields. */
export function entryHash(prevHash: string, row: Fields): string {
  const fields = {
    id: String(row.id),
    at: row.at.toISOString(),
    actor_id: row.actor_id,
    actor_label: row.actor_label,
    actor_via: row.actor_via,
    actor_token_id: row.actor_token_id,
    actor_roles: row.actor_roles,
    mch_no: row.mch_no,
    ip: row.ip,
    user_agent: row.user_agent,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    status: row.status,
    reason: row.reason,
    before: row.before,
    after: row.after,
    approval_id: row.approval_id,
  };
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(fields)).digest('hex');
}

const SECRET_KEY = /token|secret|password|recovery|otpauth|qr/i;

/** A copy of `value` with every field that could carry a credential replaced by "[redacted]". */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) ? '[redacted]' : redact(v),
      ]),
    );
  }
  return value;
}

const json = (v: unknown) => (v === undefined ? null : canonicalJson(redact(v)));
const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

export function createAuditLog(db: Kysely<Database>): AuditLog {
  return {
    list: (filter) => listAudit(db, filter),
    rows: (filter) => auditRows(db, filter),
    verify: () => verifyAudit(db),
    async append(entry) {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`.execute(trx);
        const last = await trx
          .selectFrom('audit_log')
          .select(['hash', 'at'])
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        const { rows } = await sql<{ id: string }>`select nextval('audit_log_id_seq')::text as id`.execute(
          trx,
        );
        const fields: Fields = {
          id: rows[0]?.id ?? '0',
          // Never before the entry it follows (a replica whose clock is behind): time then grows with the
          // id, so a time filter becomes a range of ids (see `filtered`).
          at: last && last.at.getTime() > Date.now() ? last.at : new Date(),
          actor_id: entry.actor.id,
          actor_label: clip(entry.actor.label, 320),
          actor_via: entry.actor.via,
          actor_token_id: entry.actor.tokenId ?? null,
          actor_roles: [...entry.actor.roles],
          mch_no: entry.mchNo ?? null,
          ip: clip(entry.actor.ip, 100),
          user_agent: clip(entry.actor.userAgent, 500),
          action: entry.action,
          target: clip(entry.target, 300),
          outcome: entry.outcome,
          status: entry.status ?? null,
          reason: entry.reason === undefined ? null : clip(entry.reason, 1000),
          before: json(entry.before),
          after: json(entry.after),
          approval_id: entry.approvalId ?? null,
        };
        const prevHash = last?.hash ?? GENESIS;
        await trx
          .insertInto('audit_log')
          .values({ ...fields, prev_hash: prevHash, hash: entryHash(prevHash, fields) })
          .execute();
      });
    },
  };
}

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  mchNo?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const MAX_ID = '9223372036854775807';

/** The entries `filter` names: the page and the CSV export apply the same one. */
function filtered(db: Kysely<Database>, filter: AuditFilter) {
  let q = db.selectFrom('audit_log').selectAll();
  // An email is a person's label, anything else an actor's id (`user:<uuid>`, `system:dev`): one equality on
  // its own (column, id) index, where an OR of the two walked the whole log by id for a rare actor.
  if (filter.actor) q = q.where(filter.actor.includes('@') ? 'actor_label' : 'actor_id', '=', filter.actor);
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.target) q = q.where('target', '=', filter.target);
  if (filter.mchNo) q = q.where('mch_no', '=', filter.mchNo);
  // Entries' times grow with their ids (`append`), so a time bound is also an id bound found in one step of
  // the (at, id) index: the page then reads backwards by id from the right place instead of walking every
  // newer entry (a day a month back: 512 ms on a million entries before, 0.09 ms after). The time
  // conditions stay, so an entry is never shown outside the window.
  if (filter.from) {
    q = q
      .where('at', '>=', filter.from)
      .where(
        sql<boolean>`id >= (select id from audit_log where at >= ${filter.from} order by at, id limit 1)`,
      );
  }
  if (filter.to) {
    q = q
      .where('at', '<', filter.to)
      .where(
        sql<boolean>`id < coalesce((select id from audit_log where at >= ${filter.to} order by at, id limit 1), ${MAX_ID}::bigint)`,
      );
  }
  return q;
}

/** Newest first; `cursor` is the id of the last entry of the previous page. */
export async function listAudit(
  db: Kysely<Database>,
  filter: AuditFilter & { cursor?: string | undefined; limit: number },
) {
  let q = filtered(db, filter);
  if (filter.cursor) q = q.where(sql<boolean>`id < ${filter.cursor}::bigint`);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit);
  return {
    entries: page.map(auditView),
    nextCursor: rows.length > filter.limit ? String(page.at(-1)?.id) : null,
  };
}

/** Oldest first, in batches, for the CSV export: the same filter as the page. */
export async function* auditRows(db: Kysely<Database>, filter: AuditFilter): AsyncGenerator<AuditLogRow> {
  let after = '0';
  for (;;) {
    const rows = await filtered(db, filter)
      .where(sql<boolean>`id > ${after}::bigint`)
      .orderBy('id', 'asc')
      .limit(1000)
      .execute();
    yield* rows;
    if (rows.length < 1000) return;
    after = String(rows.at(-1)?.id);
  }
}

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

export function auditView(row: AuditLogRow) {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: {
      id: row.actor_id,
      label: row.actor_label,
      via: row.actor_via,
      tokenId: row.actor_token_id,
      roles: row.actor_roles,
    },
    mchNo: row.mch_no,
    ip: row.ip,
    userAgent: row.user_agent,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    status: row.status,
    reason: row.reason,
    before: parse(row.before),
    after: parse(row.after),
    approvalId: row.approval_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** Recomputes the chain from the first entry; `firstBroken` is the id of the first entry that does not hold. */
export async function verifyAudit(
  db: Kysely<Database>,
): Promise<{ ok: boolean; entries: number; firstBroken?: string }> {
  let prev = GENESIS;
  let entries = 0;
  let after = '0';
  for (;;) {
    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where(sql<boolean>`id > ${after}::bigint`)
      .orderBy('id', 'asc')
      .limit(2000)
      .execute();
    for (const row of rows) {
      entries++;
      if (row.prev_hash !== prev || entryHash(prev, row) !== row.hash) {
        return { ok: false, entries, firstBroken: String(row.id) };
      }
      prev = row.hash;
    }
    if (rows.length < 2000) return { ok: true, entries };
    after = String(rows.at(-1)?.id);
  }
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_label',
  'actor_via',
  'actor_token_id',
  'actor_roles',
  'mch_no',
  'ip',
  'user_agent',
  'action',
  'target',
  'outcome',
  'status',
  'reason',
  'before',
  'after',
  'approval_id',
  'prev_hash',
  'hash',
] as const;

// The one CSV writer is @agentpay/http's (csvCell, csvRow); csvCell is re-exported for this file's tests.
export { csvCell };

export function csvHeader(): string {
  return csvRow(CSV_COLUMNS);
}

export function csvLine(row: AuditLogRow): string {
  return csvRow(CSV_COLUMNS.map((c) => row[c]));
}
