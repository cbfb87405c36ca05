import { type Kysely, sql } from 'kysely';
import type { CaseRow, CaseState, Database } from '../db/schema.js';
import { conflict, invalid, notFound } from '../errors.js';

// Cases (docs/compliance.md "Cases"): the queue of what screening and the rules found. A held payout's case is
// released or rejected (recorded here; the gateway then tells transfers); any case is closed with an outcome.
// Every step is a case event, beside the gateway's audit log entry.

export const CASE_STATES: readonly CaseState[] = ['open', 'held', 'released', 'rejected', 'closed'];
const PAGE = 50;

function caseSummary(row: CaseRow) {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    mchNo: row.mch_no,
    subject: row.subject,
    ...(row.list_id && { listId: row.list_id, listKind: row.list_kind }),
    ...(row.entry && { entry: row.entry }),
    ...(row.score !== null && { score: Math.round(row.score * 1000) / 1000 }),
    ...(row.rule && { rule: row.rule, figures: row.figures }),
    holdsPayout: row.holds_payout,
    /** A release needs a second person: a blocked-list hit. */
    releaseNeedsTwo: needsTwo(row),
    ...(row.decision && { decision: row.decision }),
    ...(row.outcome && { outcome: row.outcome }),
    ...(row.reason && { reason: row.reason }),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.closed_at && { closedAt: row.closed_at.toISOString() }),
  };
}

/** A blocked-list hit: its release waits for a second compliance or owner person. */
export function needsTwo(row: Pick<CaseRow, 'list_kind' | 'entry'>): boolean {
  return row.list_kind === 'blocked' && (row.entry as { match?: string } | null)?.match === 'hit';
}

/** A cursor: the last case's created_at and id. */
const encodeCursor = (row: CaseRow) =>
  Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string')
      return [value[0], value[1]];
  } catch {}
  throw invalid('cursor is not one this API gave');
}

export function createCases(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function row(id: string): Promise<CaseRow> {
    const found = await db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound(`no case ${id}`);
    return found;
  }

  async function get(id: string) {
    const found = await row(id);
    const operations = await db
      .selectFrom('case_operations')
      .selectAll()
      .where('case_id', '=', id)
      .orderBy('at')
      .execute();
    const events = await db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', id)
      .orderBy('id')
      .execute();
    return {
      ...caseSummary(found),
      operations: operations.map((o) => ({
        kind: o.kind,
        ref: o.ref,
        at: o.at.toISOString(),
        mchNo: o.mch_no,
        amount: (Number(o.amount) / 100).toFixed(2),
        currency: o.currency,
        ...(o.name && { name: o.name }),
        ...(o.account && { account: o.account }),
        ...(o.bank && { bank: o.bank }),
        ...(o.rfc_curp && { rfcCurp: o.rfc_curp }),
        ...(o.clave_rastreo && { claveRastreo: o.clave_rastreo }),
        // The admin API's page of the operation (CONTRACT section 11); a payee's is its merchant's.
        link:
          o.kind === 'payout'
            ? `/admin/transfers/${o.ref}`
            : o.kind === 'payee'
              ? `/admin/merchants/${o.mch_no}`
              : `/admin/orders/${o.ref}`,
      })),
      history: events.map((e) => ({
        at: e.at.toISOString(),
        actor: e.actor,
        action: e.action,
        ...(e.text && { text: e.text }),
        ...(e.approval_id && { approvalId: e.approval_id }),
      })),
    };
  }

  async function event(
    trx: Kysely<Database>,
    caseId: string,
    actor: string,
    action: string,
    text: string,
    approvalId?: string,
  ) {
    await trx
      .insertInto('case_events')
      .values({ case_id: caseId, actor, action, text, approval_id: approvalId || null })
      .execute();
  }

  return {
    get,

    async list(filter: { state: string; kind: string; cursor: string; limit: number }) {
      if (filter.state && !CASE_STATES.includes(filter.state as CaseState))
        throw invalid(`state must be one of ${CASE_STATES.join(', ')}`);
      if (filter.kind && filter.kind !== 'screening' && filter.kind !== 'rule')
        throw invalid('kind must be screening or rule');
      const limit = filter.limit > 0 ? Math.min(filter.limit, 200) : PAGE;
      let query = db.selectFrom('cases').selectAll();
      if (filter.state) query = query.where('state', '=', filter.state as CaseState);
      if (filter.kind) query = query.where('kind', '=', filter.kind as CaseRow['kind']);
      if (filter.cursor) {
        const [at, id] = decodeCursor(filter.cursor);
        query = query.where(sql<boolean>`(created_at, id) < (${new Date(at)}, ${id})`);
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      return {
        cases: page.map(caseSummary),
        ...(rows.length > limit && page.length > 0 && { nextCursor: encodeCursor(page[page.length - 1]!) }),
      };
    },

    async note(id: string, text: string, actor: string) {
      const trimmed = text.trim();
      if (!trimmed || trimmed.length > 4000) throw invalid('text must be 1 to 4000 characters');
      await row(id);
      await event(db, id, actor, 'note', trimmed);
      return get(id);
    },

    /**
     * Releases or rejects a held payout's case. A blocked-list hit is released only with an approval (a second
     * person, in the gateway). A repeat of the decision already made answers the case as it is.
     */
    async decide(input: { id: string; decision: string; reason: string; actor: string; approvalId: string }) {
      const { id, decision } = input;
      if (decision !== 'release' && decision !== 'reject')
        throw invalid('decision must be release or reject');
      if (decision === 'reject' && !input.reason.trim()) throw invalid('reason is required');
      const current = await row(id);
      const to: CaseState = decision === 'release' ? 'released' : 'rejected';
      if (!current.holds_payout) throw conflict('the case holds no payout');
      if (current.decision === decision) return get(id);
      if (current.state !== 'held') throw conflict(`the case is ${current.state}, not held`);
      if (decision === 'release' && needsTwo(current) && !input.approvalId)
        throw conflict('releasing a blocked-list hit needs a second person');
      const updated = await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('cases')
          .set({ state: to, decision, reason: input.reason.trim() || null, updated_at: new Date() })
          .where('id', '=', id)
          .where('state', '=', 'held')
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) return false;
        await event(trx, id, input.actor, decision, input.reason.trim(), input.approvalId);
        return true;
      });
      if (!updated) {
        const again = await row(id);
        if (again.decision !== decision) throw conflict(`the case is ${again.state}, not held`);
      }
      return get(id);
    },

    async close(input: { id: string; outcome: string; reason: string; actor: string }) {
      if (input.outcome !== 'not_unusual' && input.outcome !== 'report')
        throw invalid('outcome must be not_unusual or report');
      if (!input.reason.trim()) throw invalid('reason is required');
      const current = await row(input.id);
      if (current.state === 'closed') {
        if (current.outcome === input.outcome) return get(input.id);
        throw conflict(`the case is closed as ${current.outcome}`);
      }
      if (current.state === 'held') throw conflict('release or reject the payout first');
      await db.transaction().execute(async (trx) => {
        const at = new Date();
        await trx
          .updateTable('cases')
          .set({
            state: 'closed',
            outcome: input.outcome,
            reason: input.reason.trim(),
            closed_at: at,
            updated_at: at,
          })
          .where('id', '=', input.id)
          .where('state', '<>', 'closed')
          .execute();
        await event(trx, input.id, input.actor, `close:${input.outcome}`, input.reason.trim());
      });
      return get(input.id);
    },

    /** The rows of a report over operations in [from, to): cases closed as `report`, or blocked-list matches. */
    async report(kind: string, from: Date, to: Date) {
      if (kind !== 'unusual' && kind !== 'blocked') throw invalid('kind must be unusual or blocked');
      let query = db
        .selectFrom('case_operations as o')
        .innerJoin('cases as c', 'c.id', 'o.case_id')
        .select([
          'o.at',
          'o.kind',
          'o.amount',
          'o.currency',
          'o.mch_no',
          'o.name',
          'o.account',
          'o.bank',
          'o.rfc_curp',
          'o.clave_rastreo',
          'c.id as case_id',
          'c.rule',
          'c.entry',
          'c.reason',
        ])
        .where('o.at', '>=', from)
        .where('o.at', '<', to)
        // Operations only: a re-screened payee moved no money.
        .where('o.kind', 'in', ['payout', 'deposit']);
      query =
        kind === 'unusual'
          ? query.where('c.state', '=', 'closed').where('c.outcome', '=', 'report')
          : query.where('c.list_kind', '=', 'blocked').where(sql<boolean>`c.entry->>'match' = 'hit'`);
      const rows = await query.orderBy('o.at').orderBy('c.id').execute();
      return {
        rows: rows.map((r) => ({
          operationTime: r.at.toISOString(),
          kind: r.kind,
          amount: (Number(r.amount) / 100).toFixed(2),
          currency: r.currency,
          merchant: r.mch_no,
          counterpartyName: r.name,
          account: r.account,
          bank: r.bank,
          rfcCurp: r.rfc_curp,
          claveRastreo: r.clave_rastreo,
          caseId: r.case_id,
          ruleOrList: r.rule ?? (r.entry as { listName?: string } | null)?.listName ?? '',
          reason: r.reason ?? '',
        })),
      };
    },
  };
}

export type Cases = ReturnType<typeof createCases>;
