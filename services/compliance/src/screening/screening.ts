import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, ListKind } from '../db/schema.js';
import { invalid } from '../errors.js';
import { foldId, foldName } from '../lists/fold.js';

// Screening (docs/compliance.md "Screening"): one counterparty against every list version in effect. An
// equal RFC or CURP is a hit; a name is compared by pg_trgm similarity of the folded forms (lists/fold.ts),
// through the trigram GIN index: `%` with the lowest review threshold of the lists as the transaction's
// pg_trgm.similarity_threshold, then each candidate classified by its own list's thresholds.

export type Outcome = 'clear' | 'hit' | 'review';

export interface Counterparty {
  /** `payee`: a registered payee, re-screened when a list version takes effect (no operation moved). */
  operationKind: 'payout' | 'deposit' | 'payee';
  operationRef: string;
  mchNo: string;
  /** Centavos. */
  amount: number;
  name: string;
  rfc: string;
  curp: string;
  account: string;
  bank: string;
  claveRastreo: string;
}

export interface Match {
  outcome: 'hit' | 'review';
  listId: string;
  listName: string;
  listKind: ListKind;
  score: number;
  /** How it matched: the RFC, the CURP or the name. */
  by: 'rfc' | 'curp' | 'name';
  entry: { name: string; rfc: string; curp: string; birthDate: string; country: string; reference: string };
}

export interface Screening {
  outcome: Outcome;
  match?: Match | undefined;
  caseId?: string | undefined;
  /** A payout waits for a decision; a deposit is returned. */
  hold: boolean;
}

/** How many candidates the index hands back for classification. */
const CANDIDATES = 20;

const rank = (m: Match) => (m.outcome === 'hit' ? 2 : 0) + (m.listKind === 'blocked' ? 1 : 0);

/** The most severe match of `matches` (blocked hit first, then by score); undefined when none. */
export function worst(matches: readonly Match[]): Match | undefined {
  return [...matches].sort((a, b) => rank(b) - rank(a) || b.score - a.score)[0];
}

/** Every list entry in effect that `name`, `rfc` or `curp` matches at least at its list's review threshold. */
export async function findMatches(
  db: Kysely<Database>,
  who: { name: string; rfc: string; curp: string },
): Promise<Match[]> {
  const folded = foldName(who.name);
  const rfc = foldId(who.rfc);
  const curp = foldId(who.curp);
  if (!folded && !rfc && !curp) return [];
  return db.transaction().execute(async (trx) => {
    const floor = await sql<{ t: number | null }>`select min(l.review_threshold) as t from lists l
      where exists (select 1 from list_versions v where v.list_id = l.id and v.state = 'effective')`.execute(
      trx,
    );
    const threshold = floor.rows[0]?.t;
    if (threshold == null) return [];
    await sql`select set_config('pg_trgm.similarity_threshold', ${String(threshold)}, true)`.execute(trx);
    const byName = folded ? sql`e.folded % ${folded}` : sql`false`;
    const byRfc = rfc ? sql`e.rfc = ${rfc}` : sql`false`;
    const byCurp = curp ? sql`e.curp = ${curp}` : sql`false`;
    const found = await sql<{
      list_id: string;
      list_name: string;
      kind: ListKind;
      hit_threshold: number;
      review_threshold: number;
      name: string;
      rfc: string;
      curp: string;
      birth_date: string;
      country: string;
      reference: string;
      score: number;
    }>`select e.list_id, l.name as list_name, l.kind, l.hit_threshold, l.review_threshold, e.name, e.rfc, e.curp,
        e.birth_date, e.country, e.reference, similarity(e.folded, ${folded}) as score
      from list_entries e
      join list_versions v on v.id = e.version_id and v.state = 'effective'
      join lists l on l.id = e.list_id
      where ${byName} or ${byRfc} or ${byCurp}
      order by score desc
      limit ${CANDIDATES}`.execute(trx);
    return found.rows.flatMap((row): Match[] => {
      const entry = {
        name: row.name,
        rfc: row.rfc,
        curp: row.curp,
        birthDate: row.birth_date,
        country: row.country,
        reference: row.reference,
      };
      const base = { listId: row.list_id, listName: row.list_name, listKind: row.kind, entry };
      if (rfc && row.rfc === rfc) return [{ ...base, outcome: 'hit', score: 1, by: 'rfc' }];
      if (curp && row.curp === curp) return [{ ...base, outcome: 'hit', score: 1, by: 'curp' }];
      const score = Number(row.score);
      if (score >= row.hit_threshold) return [{ ...base, outcome: 'hit', score, by: 'name' }];
      if (score >= row.review_threshold) return [{ ...base, outcome: 'review', score, by: 'name' }];
      return [];
    });
  });
}

const caseId = () => `cas_${randomBytes(10).toString('hex')}`;

/** Screens one operation's counterparty; a match opens its case (once per operation), when asked to. */
export function createScreening(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return async function screen(who: Counterparty, openCase: boolean): Promise<Screening> {
    if (who.operationKind !== 'payout' && who.operationKind !== 'deposit' && who.operationKind !== 'payee')
      throw invalid('operation_kind must be payout, deposit or payee');
    if (openCase && !who.operationRef) throw invalid('operation_ref is required to open a case');
    const match = worst(await findMatches(db, who));
    if (!match) return { outcome: 'clear', hold: false };
    // Payouts: any match waits for a person. Deposits: a blocked-list hit is returned, the rest accepted.
    const hold =
      who.operationKind === 'payout' ||
      (who.operationKind === 'deposit' && match.outcome === 'hit' && match.listKind === 'blocked');
    if (!openCase) return { outcome: match.outcome, match, hold };
    const id = await openScreeningCase(db, who, match);
    return { outcome: match.outcome, match, caseId: id, hold };
  };
}

async function openScreeningCase(db: Kysely<Database>, who: Counterparty, match: Match): Promise<string> {
  const uniqueKey = `screen:${who.operationKind}:${who.operationRef}`;
  return db.transaction().execute(async (trx) => {
    const id = caseId();
    const inserted = await trx
      .insertInto('cases')
      .values({
        id,
        kind: 'screening',
        state: who.operationKind === 'payout' ? 'held' : 'open',
        unique_key: uniqueKey,
        mch_no: who.mchNo,
        subject: JSON.stringify({
          name: who.name,
          rfc: foldId(who.rfc),
          curp: foldId(who.curp),
          account: who.account,
          bank: who.bank,
        }),
        list_id: match.listId,
        list_kind: match.listKind,
        entry: JSON.stringify({
          ...match.entry,
          listName: match.listName,
          match: match.outcome,
          by: match.by,
        }),
        score: match.score,
        holds_payout: who.operationKind === 'payout',
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.column('unique_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('cases')
        .select('id')
        .where('unique_key', '=', uniqueKey)
        .executeTakeFirstOrThrow();
      return existing.id;
    }
    await trx
      .insertInto('case_operations')
      .values({
        case_id: id,
        kind: who.operationKind,
        ref: who.operationRef,
        at: new Date(),
        mch_no: who.mchNo,
        amount: String(who.amount),
        currency: 'MXN',
        name: who.name,
        account: who.account,
        bank: who.bank,
        rfc_curp: foldId(who.rfc) || foldId(who.curp),
        clave_rastreo: who.claveRastreo,
      })
      .execute();
    await trx
      .insertInto('case_events')
      .values({
        case_id: id,
        actor: 'system:screening',
        action: 'opened',
        text: `${match.outcome} on ${match.listKind} list ${match.listName} (${match.by}, score ${match.score.toFixed(2)})`,
      })
      .execute();
    return id;
  });
}

export type Screen = ReturnType<typeof createScreening>;
