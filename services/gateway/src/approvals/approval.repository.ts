import { type Kysely, sql, type Transaction } from 'kysely';
import type { ApprovalRow, ApprovalState, Database } from '../db/schema.js';

// The approvals table's reads and its conditional state changes: each change names the state it leaves,
// so of two writers only one moves a row (the other sees 0 rows and answers 409).

export { APPROVAL_STATES, type ApprovalState } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface NewApproval {
  id: string;
  action: string;
  target: string;
  summary: string;
  payload: unknown;
  requestedBy: { id: string; label: string; roles: readonly string[] };
  expiresAt: Date;
}

export async function insertApproval(db: Db, approval: NewApproval): Promise<ApprovalRow> {
  return db
    .insertInto('approvals')
    .values({
      id: approval.id,
      action: approval.action,
      target: approval.target,
      summary: approval.summary,
      payload: JSON.stringify(approval.payload),
      requested_by_id: approval.requestedBy.id,
      requested_by_label: approval.requestedBy.label,
      requested_by_roles: [...approval.requestedBy.roles],
      expires_at: approval.expiresAt,
      decided_by_id: null,
      decided_by_label: null,
      decided_at: null,
      claimed_at: null,
      result: null,
      executed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findApproval(db: Db, id: string): Promise<ApprovalRow | undefined> {
  return db.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ApprovalFilter {
  state?: ApprovalState | undefined;
  requestedBy?: string | undefined;
  /** Only those `actorId` did not ask for (what waits for a second person). */
  notRequestedBy?: string | undefined;
  /** Only those about this target (`discrepancy:42`): what already waits for a decision on it. */
  target?: string | undefined;
  limit: number;
  /** Requests older than this one (its id), for the next page. */
  before?: string | undefined;
}

/** Newest first. */
export async function listApprovals(db: Db, filter: ApprovalFilter): Promise<ApprovalRow[]> {
  let query = db.selectFrom('approvals').selectAll();
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.requestedBy) query = query.where('requested_by_id', '=', filter.requestedBy);
  if (filter.notRequestedBy) query = query.where('requested_by_id', '<>', filter.notRequestedBy);
  if (filter.target) query = query.where('target', '=', filter.target);
  if (filter.before) {
    query = query.where(
      sql<boolean>`(requested_at, id) < (select c.requested_at, c.id from approvals c where c.id = ${filter.before})`,
    );
  }
  return query.orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/**
 * pending → approved by a second person, while it has not expired; the execution is claimed at once. Answers
 * the row, or undefined when it was not pending any more (someone decided first), had expired, or the
 * approver is the requester. The approver's reason, when they gave one, is kept as the decision's.
 */
export async function approve(
  db: Db,
  id: string,
  approver: { id: string; label: string },
  now: Date,
  reason?: string,
): Promise<ApprovalRow | undefined> {
  return db
    .updateTable('approvals')
    .set({
      state: 'approved',
      decided_by_id: approver.id,
      decided_by_label: approver.label,
      decided_at: now,
      claimed_at: now,
      attempts: sql`attempts + 1`,
      ...(reason && { reason }),
    })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('expires_at', '>', now)
    .where('requested_by_id', '<>', approver.id)
    .returningAll()
    .executeTakeFirst();
}

/** pending → rejected by a second person (or withdrawn by the requester), with the reason. */
export async function reject(
  db: Db,
  id: string,
  by: { id: string; label: string },
  reason: string,
  now: Date,
): Promise<ApprovalRow | undefined> {
  return db
    .updateTable('approvals')
    .set({ state: 'rejected', decided_by_id: by.id, decided_by_label: by.label, decided_at: now, reason })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Every pending request past its expiry (or only `id`) → expired; answers the ids. */
export async function expirePending(db: Db, now: Date, id?: string): Promise<string[]> {
  let query = db
    .updateTable('approvals')
    .set({ state: 'expired' })
    .where('state', '=', 'pending')
    .where('expires_at', '<=', now);
  if (id !== undefined) query = query.where('id', '=', id);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/**
 * approved → executed (a 2xx answer) or failed (a refusal), with what the execution answered. False when it
 * had left `approved` already (another execution finished first): the caller's answer is then not recorded.
 */
export async function finish(
  db: Db,
  id: string,
  result: { status: number; body: unknown },
  now: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable('approvals')
    .set({
      state: result.status < 400 ? 'executed' : 'failed',
      result: JSON.stringify(result),
      executed_at: now,
    })
    .where('id', '=', id)
    .where('state', '=', 'approved')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/**
 * Replaces the stored answer of an approval executed in its effect's own transaction (which could only name
 * the change) with the route's full answer, read after the commit.
 */
export async function recordResult(
  db: Db,
  id: string,
  result: { status: number; body: unknown },
): Promise<void> {
  await db
    .updateTable('approvals')
    .set({ result: JSON.stringify(result) })
    .where('id', '=', id)
    .where('state', '=', 'executed')
    .execute();
}

/**
 * Claims approved requests whose execution has not finished and was last started before `staleBefore` (a
 * crash between the approval and the execution, or a service that was down): each claimed row's claim is
 * renewed, so two sweeps never take the same one in the same lease.
 */
export async function claimStale(
  db: Db,
  staleBefore: Date,
  now: Date,
  limit: number,
): Promise<ApprovalRow[]> {
  return db
    .updateTable('approvals')
    .set({ claimed_at: now, attempts: sql`attempts + 1` })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('approvals')
        .select('id')
        .where('state', '=', 'approved')
        .where((w) => w.or([w('claimed_at', 'is', null), w('claimed_at', '<', staleBefore)]))
        .orderBy('claimed_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .where('state', '=', 'approved')
    .returningAll()
    .execute();
}
