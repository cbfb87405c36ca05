import type { Actor } from './actor.js';
import { sha256 } from './passwords.js';
import {
  actorOf,
  type ClientInfo,
  checkRoles,
  type PeopleServiceDeps,
  type Scope,
  secret,
} from './people-common.js';
import { PeopleError } from './people-errors.js';

export const TOKEN_MAX_DAYS = 90;
export const TOKEN_PREFIX = 'apt_';

export function createPeopleTokens(deps: PeopleServiceDeps) {
  const { db } = deps;

  return {
    /** The person behind a personal token, limited to the roles both the token and the person still hold. */
    async tokenActor(kind: Scope['kind'], token: string, client: ClientInfo): Promise<Actor | undefined> {
      const row = await db
        .selectFrom('personal_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .selectAll('u')
        .select(['t.id as token_id', 't.roles as token_roles', 't.last_used_at'])
        .where('t.secret_hash', '=', sha256(token))
        .where('t.revoked_at', 'is', null)
        .where('t.expires_at', '>', new Date())
        .where('u.status', '=', 'enabled')
        .where('u.mch_no', kind === 'operator' ? '=' : '!=', '')
        .executeTakeFirst();
      if (!row) return undefined;
      if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
        await db
          .updateTable('personal_tokens')
          .set({ last_used_at: new Date() })
          .where('id', '=', row.token_id)
          .execute();
      }
      const roles = row.token_roles.filter((r) => row.roles.includes(r));
      return actorOf(row, 'token', roles, client, { tokenId: row.token_id });
    },

    /** A token acting as `actor`'s person with at most the roles they hold now. */
    async createToken(actor: Actor, input: { name: string; roles: string[]; expiresInDays: number }) {
      const userId = actor.id.slice('user:'.length);
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const scope: Scope = user.mch_no ? { kind: 'merchant', mchNo: user.mch_no } : { kind: 'operator' };
      const roles = checkRoles(scope, input.roles);
      const beyond = roles.find((r) => !actor.roles.includes(r));
      if (beyond !== undefined) throw new PeopleError('forbidden', `roles: ${beyond} is not one of yours`);
      if (input.expiresInDays > TOKEN_MAX_DAYS)
        throw new PeopleError('invalid', `expiresInDays: at most ${TOKEN_MAX_DAYS}`);
      const token = `${TOKEN_PREFIX}${secret(32)}`;
      const expiresAt = new Date(Date.now() + input.expiresInDays * 86_400_000);
      const row = await db
        .insertInto('personal_tokens')
        .values({
          secret_hash: sha256(token),
          user_id: userId,
          name: input.name,
          roles,
          expires_at: expiresAt,
          last_used_at: null,
          revoked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, token, name: input.name, roles, expiresAt: expiresAt.toISOString() };
    },

    async tokens(userId: string) {
      const rows = await db
        .selectFrom('personal_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((t) => ({
        id: t.id,
        name: t.name,
        roles: t.roles,
        createdAt: t.created_at.toISOString(),
        expiresAt: t.expires_at.toISOString(),
        lastUsedAt: t.last_used_at?.toISOString() ?? null,
        revokedAt: t.revoked_at?.toISOString() ?? null,
        active: t.revoked_at === null && t.expires_at.getTime() > Date.now(),
      }));
    },

    async revokeToken(userId: string, tokenId: string) {
      const done = /^[0-9a-f-]{36}$/i.test(tokenId)
        ? await db
            .updateTable('personal_tokens')
            .set({ revoked_at: new Date() })
            .where('id', '=', tokenId)
            .where('user_id', '=', userId)
            .where('revoked_at', 'is', null)
            .executeTakeFirst()
        : undefined;
      if (!done || Number(done.numUpdatedRows) !== 1)
        throw new PeopleError('not_found', 'no such active token');
    },
  };
}
