import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, ListKind, ListRow, VersionRow } from '../db/schema.js';
import { conflict, invalid, notFound } from '../errors.js';
import { LIST_FORMATS, type ListEntry, type ListFormat, ListFormatError, readList } from './list-readers.js';

// Lists (docs/compliance.md "Lists"): a list is a name and a kind; its entries come in versions. An upload
// stores a version as `pending`; activating it (after a second person approved, in the gateway) makes it the
// one in effect and the previous one `superseded`, in one transaction, so screening sees one whole version.

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
/** Rows per insert while storing a version. */
const INSERT_BATCH = 2_000;

export function listView(list: ListRow, versions: VersionRow[]) {
  const effective = versions.find((v) => v.state === 'effective');
  return {
    id: list.id,
    name: list.name,
    kind: list.kind,
    hitThreshold: list.hit_threshold,
    reviewThreshold: list.review_threshold,
    createdBy: list.created_by,
    createdAt: list.created_at.toISOString(),
    ...(effective && { effectiveVersion: effective.version, entries: effective.entries }),
    versions: versions.map(versionView),
  };
}

export function versionView(v: VersionRow) {
  return {
    id: v.id,
    version: v.version,
    state: v.state,
    format: v.format,
    entries: v.entries,
    uploadedBy: v.uploaded_by,
    createdAt: v.created_at.toISOString(),
    ...(v.approved_by && { approvedBy: v.approved_by }),
    ...(v.approval_id && { approvalId: v.approval_id }),
    ...(v.effective_at && { effectiveAt: v.effective_at.toISOString() }),
  };
}

export function createLists(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function versionsOf(listId: string): Promise<VersionRow[]> {
    return db
      .selectFrom('list_versions')
      .selectAll()
      .where('list_id', '=', listId)
      .orderBy('version', 'desc')
      .execute();
  }

  async function get(id: string) {
    const list = await db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
    if (!list) throw notFound(`no list ${id}`);
    return listView(list, await versionsOf(id));
  }

  return {
    get,

    async create(input: { name: string; kind: string; actor: string }) {
      const name = input.name.trim();
      if (!name || name.length > 100) throw invalid('name must be 1 to 100 characters');
      if (input.kind !== 'blocked' && input.kind !== 'watch') throw invalid('kind must be blocked or watch');
      const id = newId('lst');
      const inserted = await db
        .insertInto('lists')
        .values({
          id,
          name,
          kind: input.kind as ListKind,
          hit_threshold: 0.9,
          review_threshold: 0.8,
          created_by: input.actor,
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) throw conflict(`a list named ${name} exists`);
      return listView(inserted, []);
    },

    async all() {
      const lists = await db.selectFrom('lists').selectAll().orderBy('created_at').execute();
      const versions = await db.selectFrom('list_versions').selectAll().orderBy('version', 'desc').execute();
      return lists.map((l) =>
        listView(
          l,
          versions.filter((v) => v.list_id === l.id),
        ),
      );
    },

    /** Checks and stores a new version as pending; nothing changes for screening until it is activated. */
    async upload(input: { listId: string; format: string; body: string; actor: string }) {
      if (!(LIST_FORMATS as readonly string[]).includes(input.format))
        throw invalid(`format must be one of ${LIST_FORMATS.join(', ')}`);
      const list = await db.selectFrom('lists').selectAll().where('id', '=', input.listId).executeTakeFirst();
      if (!list) throw notFound(`no list ${input.listId}`);
      let entries: ListEntry[];
      try {
        entries = readList(input.format as ListFormat, input.body);
      } catch (err) {
        if (err instanceof ListFormatError) throw invalid(err.message);
        throw err;
      }
      if (entries.length === 0) throw invalid('the file has no entries');
      const version = await storeVersion(db, list.id, input.format, entries, input.actor);
      return { list: { id: list.id, name: list.name, kind: list.kind }, version: versionView(version) };
    },

    /** Makes a pending version the one in effect; a repeat for the version in effect answers it. */
    async activate(input: { listId: string; versionId: string; actor: string; approvalId: string }) {
      await db.transaction().execute(async (trx) => {
        const version = await trx
          .selectFrom('list_versions')
          .selectAll()
          .where('id', '=', input.versionId)
          .where('list_id', '=', input.listId)
          .forUpdate()
          .executeTakeFirst();
        if (!version) throw notFound(`no version ${input.versionId} of list ${input.listId}`);
        if (version.state === 'effective') return;
        if (version.state !== 'pending') throw conflict(`version ${version.version} is ${version.state}`);
        // A newer version in effect already: this one would move the list back.
        const newer = await trx
          .selectFrom('list_versions')
          .select('version')
          .where('list_id', '=', input.listId)
          .where('state', '=', 'effective')
          .where('version', '>', version.version)
          .executeTakeFirst();
        if (newer) throw conflict(`version ${newer.version} is in effect and newer`);
        await trx
          .updateTable('list_versions')
          .set({ state: 'superseded' })
          .where('list_id', '=', input.listId)
          .where('state', '=', 'effective')
          .execute();
        await trx
          .updateTable('list_versions')
          .set({
            state: 'effective',
            approved_by: input.actor,
            approval_id: input.approvalId || null,
            effective_at: new Date(),
          })
          .where('id', '=', version.id)
          .execute();
      });
      return get(input.listId);
    },
  };
}

/** Stores a version of `listId` and its entries (pending), in one transaction. Exported for the bench's fill. */
export async function storeVersion(
  db: Kysely<Database>,
  listId: string,
  format: string,
  entries: readonly ListEntry[],
  actor: string,
): Promise<VersionRow> {
  return db.transaction().execute(async (trx) => {
    // Serialises uploads of one list, so version numbers do not collide.
    await sql`select pg_advisory_xact_lock(hashtext(${listId}))`.execute(trx);
    const last = await trx
      .selectFrom('list_versions')
      .select(sql<number>`coalesce(max(version), 0)`.as('v'))
      .where('list_id', '=', listId)
      .executeTakeFirstOrThrow();
    const version = await trx
      .insertInto('list_versions')
      .values({
        id: newId('ver'),
        list_id: listId,
        version: Number(last.v) + 1,
        state: 'pending',
        format,
        entries: entries.length,
        uploaded_by: actor,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (let i = 0; i < entries.length; i += INSERT_BATCH) {
      await trx
        .insertInto('list_entries')
        .values(
          entries.slice(i, i + INSERT_BATCH).map((e) => ({
            version_id: version.id,
            list_id: listId,
            name: e.name,
            folded: e.folded,
            rfc: e.rfc,
            curp: e.curp,
            birth_date: e.birthDate,
            country: e.country,
            reference: e.reference,
          })),
        )
        .execute();
    }
    return version;
  });
}
