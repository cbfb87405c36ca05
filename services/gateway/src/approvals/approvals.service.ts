import { randomBytes } from 'node:crypto';
import type { Logger } from '@agentpay/logger';
import type { CallOrigin } from '@agentpay/proto';
import { startBackgroundLoop } from '@agentpay/runtime';
import type { Kysely } from 'kysely';
import type { ApprovalRow, Database } from '../db/schema.js';
import type { Actor } from '../identity/index.js';
import type { AdminOperation, HttpResult, OperationRegistry } from './admin-operation.js';
import {
  type ApprovalFilter,
  approve,
  claimStale,
  expirePending,
  findApproval,
  finish,
  insertApproval,
  listApprovals,
  recordResult,
  reject,
} from './approval.repository.js';

// Four eyes (services/gateway/README.md "Four eyes"): one person asks, a second approves, and the request is
// executed exactly as it was made, once. Once: the approval is a conditional update (pending → approved), so
// of two approvers clicking at once one wins; the execution is claimed in that same update, finished by
// another (approved → executed | failed), and repeated safely (an idempotency key derived from the approval
// travels to the service) when a crash left it approved: the sweep takes over a claim older than its lease.

/** A pending request expires after 24 hours (services/gateway/README.md "Four eyes"). */
export const APPROVAL_TTL_MS = 24 * 3_600_000;

/** The roles that may approve. */
export const APPROVER_ROLES = ['approver', 'owner'] as const;

/** An audit log entry about an approval (identity/audit-log.ts's AuditEntry, the fields used here). */
export interface ApprovalAuditEntry {
  actor: Pick<Actor, 'id' | 'label' | 'via' | 'roles' | 'ip' | 'userAgent'> & {
    tokenId?: string | undefined;
  };
  action: string;
  target: string;
  outcome: 'success' | 'failure' | 'denied';
  status?: number | undefined;
  reason?: string | undefined;
  before?: unknown;
  after?: unknown;
  approvalId?: string | undefined;
}

export interface ApprovalsDeps {
  db: Kysely<Database>;
  operations: OperationRegistry;
  logger: Logger;
  /** Where decisions are recorded (the audit log); absent in tests of this module alone. */
  audit?: { append(entry: ApprovalAuditEntry): Promise<void> } | undefined;
  /** How long a request waits for a second person (24 h). */
  ttlMs: number;
  /** How long an execution may take before the sweep assumes it was cut short and takes it over. */
  leaseMs: number;
  /** Pause between sweeps (expiry, executions left behind); 0: no loop (sweep() still works). */
  sweepMs: number;
  now?: () => Date;
  /**
   * Runs after an approval commits and before its execution starts: the crash point of the restart test
   * (APPROVALS_CRASH_POINT). Nothing else uses it.
   */
  afterApproved?: ((approval: ApprovalRow) => Promise<void> | void) | undefined;
}

/** A refusal of a decision, with its HTTP status. */
export class ApprovalRefusal extends Error {
  constructor(
    readonly status: 403 | 404 | 409,
    readonly kind: 'forbidden' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/** An approval as the admin API shows it. */
export function approvalView(row: ApprovalRow) {
  const result = row.result as HttpResult | null;
  return {
    id: row.id,
    state: row.state,
    action: row.action,
    target: row.target,
    summary: row.summary,
    request: row.payload,
    requestedBy: { id: row.requested_by_id, label: row.requested_by_label },
    requestedAt: row.requested_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    ...(row.decided_by_id && {
      decidedBy: { id: row.decided_by_id, label: row.decided_by_label },
      decidedAt: row.decided_at?.toISOString(),
    }),
    ...(row.reason && { reason: row.reason }),
    ...(row.executed_at && { executedAt: row.executed_at.toISOString() }),
    ...(result && { result }),
  };
}

const newId = () => `apr_${randomBytes(12).toString('hex')}`;

const auditActor = (actor: Actor): ApprovalAuditEntry['actor'] => ({
  id: actor.id,
  label: actor.label,
  via: actor.via,
  roles: actor.roles,
  ip: actor.ip,
  userAgent: actor.userAgent,
  tokenId: actor.tokenId,
});

/** The roles that may approve `operation` (its own, or APPROVER_ROLES). */
export const approverRolesOf = (operation?: Pick<AdminOperation, 'approverRoles'>): readonly string[] =>
  operation?.approverRoles ?? APPROVER_ROLES;

/** Whether `actor` may approve what others asked for (of `operation`, when given). */
export const canApprove = (
  actor: Pick<Actor, 'roles'>,
  operation?: Pick<AdminOperation, 'approverRoles'>,
): boolean => actor.roles.some((role) => approverRolesOf(operation).includes(role));

export function createApprovals(deps: ApprovalsDeps) {
  const { db, operations, logger } = deps;
  const now = deps.now ?? (() => new Date());

  const audit = async (entry: ApprovalAuditEntry) => {
    if (!deps.audit) return;
    try {
      await deps.audit.append(entry);
    } catch (err) {
      // The decision stands (it committed); a lost audit line is an error to see, not a reason to undo it.
      logger.error({ err, approvalId: entry.approvalId, action: entry.action }, 'audit append failed');
    }
  };

  /** The person who asked, as the execution's origin: the services record them, with the approval. */
  const originOf = (row: ApprovalRow): CallOrigin => ({
    actor: { id: row.requested_by_id, label: row.requested_by_label, roles: row.requested_by_roles },
    approvalId: row.id,
  });

  const operationOf = (row: ApprovalRow): AdminOperation => {
    const operation = operations.byAction(row.action);
    if (!operation) throw new Error(`approval ${row.id}: no operation ${row.action}`);
    return operation;
  };

  /**
   * Executes an approved request once: performs it and records the answer (approved → executed | failed).
   * When the outcome is unknown (a service unreachable, a crash), it stays approved for the sweep. Answers
   * the row as it is afterwards.
   */
  async function execute(row: ApprovalRow): Promise<ApprovalRow> {
    const operation = operationOf(row);
    let recordedInTransaction = false;
    let result: HttpResult;
    try {
      result = await operation.perform(row.payload, {
        origin: originOf(row),
        markExecuted: async (trx, answer) => {
          if (!(await finish(trx, row.id, answer, now())))
            throw new ApprovalRefusal(409, 'conflict', `approval ${row.id} is no longer approved`);
          recordedInTransaction = true;
        },
      });
    } catch (err) {
      if (err instanceof ApprovalRefusal) return (await findApproval(db, row.id)) ?? row;
      logger.warn(
        { err, approvalId: row.id, action: row.action },
        'approved request not executed yet; will retry',
      );
      return row;
    }
    if (result.status >= 500) {
      logger.warn(
        { approvalId: row.id, action: row.action, status: result.status },
        'approved request not executed yet; will retry',
      );
      return row;
    }
    if (recordedInTransaction) await recordResult(db, row.id, result);
    else await finish(db, row.id, result, now());
    const after = (await findApproval(db, row.id)) ?? row;
    logger.info(
      { approvalId: row.id, action: row.action, state: after.state, status: result.status },
      'approved request executed',
    );
    return after;
  }

  return {
    /**
     * Asks for `operation` as `actor` asked, after `prepare` said yes: a pending approval holding exactly the
     * checked request.
     */
    async request(
      actor: Actor,
      operation: AdminOperation,
      prepared: { payload: unknown; summary: string; target: string },
    ): Promise<ApprovalRow> {
      const row = await insertApproval(db, {
        id: newId(),
        action: operation.action,
        target: prepared.target,
        summary: prepared.summary,
        payload: prepared.payload,
        requestedBy: { id: actor.id, label: actor.label, roles: actor.roles },
        expiresAt: new Date(now().getTime() + deps.ttlMs),
      });
      await audit({
        actor: auditActor(actor),
        action: 'approval.request',
        target: row.target,
        outcome: 'success',
        status: 202,
        after: { action: row.action, summary: row.summary, request: prepared.payload },
        approvalId: row.id,
      });
      logger.info({ approvalId: row.id, action: row.action, by: actor.label }, 'four-eyes request');
      return row;
    },

    async get(id: string): Promise<ApprovalRow> {
      const row = await findApproval(db, id);
      if (!row) throw new ApprovalRefusal(404, 'not_found', `no approval ${id}`);
      return row;
    },

    list: (filter: ApprovalFilter) => listApprovals(db, filter),

    /**
     * A second person approves, with their reason if they give one: the request executes at once (or, if that
     * is cut short, by the sweep).
     */
    async approve(actor: Actor, id: string, reason?: string): Promise<ApprovalRow> {
      const row = await this.get(id);
      const refuse = async (refusal: ApprovalRefusal) => {
        await audit({
          actor: auditActor(actor),
          action: 'approval.approve',
          target: row.target,
          outcome: refusal.status === 403 ? 'denied' : 'failure',
          status: refusal.status,
          reason: refusal.message,
          approvalId: row.id,
        });
        throw refusal;
      };
      if (row.requested_by_id === actor.id)
        return refuse(
          new ApprovalRefusal(403, 'forbidden', 'the person who asked cannot approve their own request'),
        );
      const operation = operations.byAction(row.action);
      if (!canApprove(actor, operation))
        return refuse(
          new ApprovalRefusal(
            403,
            'forbidden',
            `approving needs the role ${approverRolesOf(operation).join(' or ')}`,
          ),
        );
      const at = now();
      const approved = await approve(db, row.id, { id: actor.id, label: actor.label }, at, reason);
      if (!approved) {
        if (row.state === 'pending' && row.expires_at <= at) await expirePending(db, at, row.id);
        const current = (await findApproval(db, row.id)) ?? row;
        return refuse(new ApprovalRefusal(409, 'conflict', `the request is ${current.state}, not pending`));
      }
      await audit({
        actor: auditActor(actor),
        action: 'approval.approve',
        target: approved.target,
        outcome: 'success',
        status: 200,
        reason,
        before: { state: 'pending', requestedBy: approved.requested_by_label },
        after: { state: 'approved', decidedBy: actor.label },
        approvalId: approved.id,
      });
      await deps.afterApproved?.(approved);
      const executed = await execute(approved);
      await audit({
        actor: auditActor(actor),
        action: approved.action,
        target: approved.target,
        outcome: executed.state === 'executed' ? 'success' : 'failure',
        status: (executed.result as HttpResult | null)?.status,
        after: executed.result ?? { state: executed.state },
        approvalId: approved.id,
      });
      return executed;
    },

    /** A second person rejects, or the person who asked withdraws: nothing is executed. */
    async reject(actor: Actor, id: string, reason: string): Promise<ApprovalRow> {
      const row = await this.get(id);
      const own = row.requested_by_id === actor.id;
      const operation = operations.byAction(row.action);
      if (!own && !canApprove(actor, operation))
        throw new ApprovalRefusal(
          403,
          'forbidden',
          `rejecting needs the role ${approverRolesOf(operation).join(' or ')}`,
        );
      const rejected = await reject(db, row.id, { id: actor.id, label: actor.label }, reason, now());
      if (!rejected) {
        const current = (await findApproval(db, row.id)) ?? row;
        throw new ApprovalRefusal(409, 'conflict', `the request is ${current.state}, not pending`);
      }
      await audit({
        actor: auditActor(actor),
        action: 'approval.reject',
        target: rejected.target,
        outcome: 'success',
        status: 200,
        reason,
        approvalId: rejected.id,
      });
      return rejected;
    },

    /**
     * One round of upkeep: pending requests past their 24 h expire, and approved requests whose execution
     * was cut short (a crash, a service down) are executed. Answers how many of each.
     */
    async sweep(): Promise<{ expired: number; executed: number }> {
      const at = now();
      const expired = await expirePending(db, at);
      if (expired.length) logger.info({ approvals: expired }, 'four-eyes requests expired');
      let executed = 0;
      for (;;) {
        const claimed = await claimStale(db, new Date(at.getTime() - deps.leaseMs), now(), 20);
        for (const row of claimed) {
          const after = await execute(row);
          if (after.state !== 'approved') executed += 1;
        }
        if (claimed.length < 20) break;
      }
      return { expired: expired.length, executed };
    },

    execute,
  };
}

export type Approvals = ReturnType<typeof createApprovals>;

/** Starts the sweep loop: one round at start, then every `sweepMs`. */
export function startApprovalSweep(approvals: Approvals, deps: Pick<ApprovalsDeps, 'logger' | 'sweepMs'>) {
  return startBackgroundLoop({
    name: 'approvals sweep',
    logger: deps.logger,
    intervalMs: deps.sweepMs,
    round: async () => {
      const { executed } = await approvals.sweep();
      return executed;
    },
  });
}
