import type { Actor } from './actor.js';
import { sha256 } from './passwords.js';
import { actorOf, type ClientInfo, type PeopleServiceDeps, type Scope } from './people-common.js';
import { PeopleError } from './people-errors.js';

export const SESSION_IDLE_MS = 15 * 60_000;
export const SESSION_MAX_MS = 12 * 3_600_000;

export function createPeopleSessions(deps: PeopleServiceDeps) {
  const { db } = deps;

  return {
    /** The person behind a session cookie, checked on every request: enabled, not ended, not idle, not too old. */
    async sessionActor(
      kind: Scope['kind'],
      sessionSecret: string,
      client: ClientInfo,
    ): Promise<{ actor: Actor; csrfToken: string } | undefined> {
      const now = Date.now();
      const row = await db
        .selectFrom('user_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .selectAll('u')
        .select(['s.id as session_id', 's.csrf_token', 's.created_at as session_created_at'])
        .where('s.secret_hash', '=', sha256(sessionSecret))
        .where('s.ended_at', 'is', null)
        .where('s.last_seen_at', '>', new Date(now - SESSION_IDLE_MS))
        .where('s.created_at', '>', new Date(now - SESSION_MAX_MS))
        .where('u.status', '=', 'enabled')
        .where('u.mch_no', kind === 'operator' ? '=' : '!=', '')
        .executeTakeFirst();
      if (!row) return undefined;
      await db
        .updateTable('user_sessions')
        .set({ last_seen_at: new Date() })
        .where('id', '=', row.session_id)
        .execute();
      return {
        actor: actorOf(row, 'session', row.roles, client, { sessionId: row.session_id }),
        csrfToken: row.csrf_token,
      };
    },

    async endSession(sessionId: string) {
      await db
        .updateTable('user_sessions')
        .set({ ended_at: new Date() })
        .where('id', '=', sessionId)
        .where('ended_at', 'is', null)
        .execute();
    },

    async sessions(userId: string, currentSessionId?: string) {
      const now = Date.now();
      const rows = await db
        .selectFrom('user_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .where('last_seen_at', '>', new Date(now - SESSION_IDLE_MS))
        .where('created_at', '>', new Date(now - SESSION_MAX_MS))
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((s) => ({
        id: s.id,
        current: s.id === currentSessionId,
        ip: s.ip,
        userAgent: s.user_agent,
        createdAt: s.created_at.toISOString(),
        lastSeenAt: s.last_seen_at.toISOString(),
      }));
    },

    async endOwnSession(userId: string, sessionId: string) {
      const done = /^[0-9a-f-]{36}$/i.test(sessionId)
        ? await db
            .updateTable('user_sessions')
            .set({ ended_at: new Date() })
            .where('id', '=', sessionId)
            .where('user_id', '=', userId)
            .where('ended_at', 'is', null)
            .executeTakeFirst()
        : undefined;
      if (!done || Number(done.numUpdatedRows) !== 1) throw new PeopleError('not_found', 'no such session');
    },
  };
}
