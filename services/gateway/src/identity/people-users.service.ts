import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import type { Actor } from './actor.js';
import { checkRoles, mchOf, type PeopleServiceDeps, type Scope, userView } from './people-common.js';
import { PeopleError } from './people-errors.js';

export function createPeopleUsers(deps: PeopleServiceDeps) {
  const { db } = deps;

  async function person(scope: Scope, id: string, trx: Kysely<Database> = db): Promise<UserRow> {
    const user = /^[0-9a-f-]{36}$/i.test(id)
      ? await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', id)
          .where('mch_no', '=', mchOf(scope))
          .executeTakeFirst()
      : undefined;
    if (!user) throw new PeopleError('not_found', 'no such user');
    return user;
  }

  async function endEverything(trx: Transaction<Database>, userId: string) {
    await trx
      .updateTable('user_sessions')
      .set({ ended_at: new Date() })
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .execute();
    await trx
      .updateTable('personal_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  return {
    person,

    async users(scope: Scope) {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where('mch_no', '=', mchOf(scope))
        .orderBy('created_at', 'asc')
        .execute();
      return rows.map(userView);
    },

    /**
     * One page of a scope's people by email (case-insensitive), on the (mch_no, lower(email)) index;
     * `search` matches any part of the email or the name. `next` is the last email of the page.
     */
    async usersPage(
      scope: Scope,
      query: { search?: string | undefined; cursor?: string | undefined; limit: number },
    ) {
      let q = db.selectFrom('users').selectAll().where('mch_no', '=', mchOf(scope));
      if (query.search) {
        const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) => eb.or([eb('email', 'ilike', like), eb('name', 'ilike', like)]));
      }
      if (query.cursor) q = q.where(sql<string>`lower(email)`, '>', query.cursor.toLowerCase());
      const rows = await q
        .orderBy(sql`lower(email)`)
        .limit(query.limit + 1)
        .execute();
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        users: page.map(userView),
        ...(rows.length > query.limit && last ? { next: last.email.toLowerCase() } : {}),
      };
    },

    /**
     * Roles, status and unlock. Disabling ends every session and token at once. The last enabled owner
     * stays one; a merchant's admin leaves its owners and the owner role to its owners.
     */
    async updateUser(
      scope: Scope,
      id: string,
      change: {
        roles?: string[] | undefined;
        status?: 'enabled' | 'disabled' | undefined;
        unlock?: boolean | undefined;
      },
      by: Actor,
    ) {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`people:${mchOf(scope)}`}))`.execute(trx);
        const before = await person(scope, id, trx);
        const roles = change.roles ? checkRoles(scope, change.roles) : before.roles;
        if (
          scope.kind === 'merchant' &&
          !by.roles.includes('owner') &&
          (before.roles.includes('owner') || roles.includes('owner'))
        ) {
          throw new PeopleError(
            'forbidden',
            "only the merchant's owner changes an owner or grants the owner role",
          );
        }
        if (change.status === 'enabled' && before.status === 'invited') {
          throw new PeopleError('conflict', 'the invitation has not been accepted yet');
        }
        // Disabling works at any point, an invitation not yet accepted included (it stops working at once).
        const status =
          change.status === 'disabled'
            ? 'disabled'
            : change.status && before.status !== 'invited'
              ? change.status
              : before.status;
        const stillOwner = roles.includes('owner') && status === 'enabled';
        if (before.roles.includes('owner') && before.status === 'enabled' && !stillOwner) {
          const others = await trx
            .selectFrom('users')
            .select('id')
            .where('mch_no', '=', mchOf(scope))
            .where('id', '!=', id)
            .where('status', '=', 'enabled')
            .where(sql<boolean>`'owner' = any(roles)`)
            .executeTakeFirst();
          if (!others) throw new PeopleError('conflict', 'the last enabled owner stays an enabled owner');
        }
        const after = await trx
          .updateTable('users')
          .set({
            roles,
            status,
            ...(change.unlock ? { locked_until: null, failed_signins: 0 } : {}),
            ...(status === 'disabled' ? { invite_token_hash: null, invite_expires_at: null } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (status === 'disabled' && before.status !== 'disabled') await endEverything(trx, id);
        return { before: userView(before), after: userView(after) };
      });
    },
  };
}
