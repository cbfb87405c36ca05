import { randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { type Actor, MERCHANT_ROLES, OPERATOR_ROLES } from './actor.js';
import { DECOY_HASH, hashPassword, passwordProblem, sha256, verifyPassword } from './passwords.js';
import type { SecretBox } from './secret-box.js';
import { enrolment, newTotpSecret, totpStep } from './totp.js';

/** Whose people: the platform's operators, or one merchant's own team. */
export type Scope = { kind: 'operator' } | { kind: 'merchant'; mchNo: string };

export const INVITATION_HOURS = 72;
export const SESSION_IDLE_MS = 15 * 60_000;
export const SESSION_MAX_MS = 12 * 3_600_000;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MINUTES = 15;
export const TOKEN_MAX_DAYS = 90;
export const RECOVERY_CODES = 10;
export const TOKEN_PREFIX = 'apt_';

const PEOPLE_ERRORS = ['invalid', 'not_found', 'conflict', 'forbidden'] as const;
export type PeopleErrorKind = (typeof PEOPLE_ERRORS)[number];

/** A refusal the routes answer as 400, 404, 409 or 403 with its message. */
export class PeopleError extends Error {
  constructor(
    readonly kind: PeopleErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PeopleError';
  }
}

export const statusOf = (kind: PeopleErrorKind): number => {
  switch (kind) {
    case 'invalid':
      return 400;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'forbidden':
      return 403;
    default: {
      const never: never = kind;
      return never;
    }
  }
};

const mchOf = (scope: Scope) => (scope.kind === 'operator' ? '' : scope.mchNo);
export const rolesOf = (scope: Scope): readonly string[] =>
  scope.kind === 'operator' ? OPERATOR_ROLES : MERCHANT_ROLES;
const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

export function checkRoles(scope: Scope, roles: readonly string[]): string[] {
  const allowed = rolesOf(scope);
  const unknown = roles.find((r) => !allowed.includes(r));
  if (unknown !== undefined)
    throw new PeopleError('invalid', `roles: unknown role ${unknown} (one of ${allowed.join(', ')})`);
  if (roles.length === 0) throw new PeopleError('invalid', 'roles: at least one');
  return [...new Set(roles)].sort((a, b) => allowed.indexOf(a) - allowed.indexOf(b));
}

/** What a person looks like to the API: never the hashes or the secret. */
export function userView(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    roles: u.roles,
    status: u.status,
    ...(u.mch_no ? { mchNo: u.mch_no } : {}),
    totpEnrolled: u.totp_confirmed,
    locked: u.locked_until !== null && u.locked_until.getTime() > Date.now(),
    lockedUntil:
      u.locked_until && u.locked_until.getTime() > Date.now() ? u.locked_until.toISOString() : null,
    createdAt: u.created_at.toISOString(),
  };
}

/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export type SignInResult =
  | {
      ok: true;
      user: UserRow;
      sessionId: string;
      sessionSecret: string;
      csrfToken: string;
      via: 'totp' | 'recovery_code';
    }
  | { ok: false; user?: UserRow | undefined; reason: string };

export interface PeopleServiceDeps {
  db: Kysely<Database>;
  box: SecretBox;
  /** Shown by authenticator apps beside the account, e.g. "AgentPay". */
  issuer: string;
}

export type PeopleService = ReturnType<typeof createPeopleService>;

export function createPeopleService(deps: PeopleServiceDeps) {
  const { db, box } = deps;

  const byInvitation = (token: string) =>
    db
      .selectFrom('users')
      .selectAll()
      .where('invite_token_hash', '=', sha256(token))
      .where('status', '=', 'invited')
      .where('invite_expires_at', '>', new Date())
      .executeTakeFirst();

  async function invitation(token: string): Promise<UserRow> {
    const user = await byInvitation(token);
    if (!user) throw new PeopleError('not_found', 'no such invitation, or it expired or was used');
    return user;
  }

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

  function actorOf(
    user: UserRow,
    via: Actor['via'],
    roles: readonly string[],
    client: ClientInfo,
    ids: { sessionId?: string; tokenId?: string },
  ): Actor {
    return {
      id: `user:${user.id}`,
      kind: 'person',
      label: user.email,
      roles,
      scope: user.mch_no ? { kind: 'merchant', mchNo: user.mch_no } : { kind: 'operator' },
      via,
      sessionId: ids.sessionId,
      tokenId: ids.tokenId,
      ip: client.ip,
      userAgent: client.userAgent,
    };
  }

  return {
    person,

    async hasOwner(scope: Scope): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('mch_no', '=', mchOf(scope))
        .where(sql<boolean>`'owner' = any(roles)`)
        // An invitation that expired unaccepted brings nobody in: it does not count, so the bootstrap can
        // invite again.
        .where((eb) =>
          eb.or([
            eb('status', '=', 'enabled'),
            eb.and([eb('status', '=', 'invited'), eb('invite_expires_at', '>', new Date())]),
          ]),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A new invited person; the invitation token is returned once and stored hashed. */
    async invite(scope: Scope, input: { email: string; name: string; roles: string[] }, by: string) {
      const roles = checkRoles(scope, input.roles);
      const token = secret(32);
      const expiresAt = new Date(Date.now() + INVITATION_HOURS * 3_600_000);
      const row = await db
        .insertInto('users')
        .values({
          mch_no: mchOf(scope),
          email: input.email.trim().toLowerCase(),
          name: input.name,
          roles,
          status: 'invited',
          password_hash: null,
          totp_secret_enc: null,
          locked_until: null,
          invite_token_hash: sha256(token),
          invite_expires_at: expiresAt,
          created_by: by,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new PeopleError('conflict', `${input.email} already has an account here`);
      return { user: row, inviteToken: token, expiresAt };
    },

    async invitation(token: string) {
      const user = await invitation(token);
      return { email: user.email, name: user.name, ...(user.mch_no ? { mchNo: user.mch_no } : {}) };
    },

    /** Sets the password and a fresh TOTP secret; may be repeated until the code is confirmed. */
    async acceptInvitation(token: string, password: string) {
      const user = await invitation(token);
      const problem = passwordProblem(password);
      if (problem) throw new PeopleError('invalid', `password: ${problem}`);
      const totpSecret = newTotpSecret();
      await db
        .updateTable('users')
        .set({
          password_hash: await hashPassword(password),
          totp_secret_enc: box.seal(totpSecret, user.id),
          updated_at: new Date(),
        })
        .where('id', '=', user.id)
        .where('status', '=', 'invited')
        .execute();
      return { totpSecret, ...(await enrolment(totpSecret, user.email, deps.issuer)) };
    },

    /** The first code proves the authenticator works: the account is enabled, the invitation used up. */
    async confirmInvitation(token: string, code: string) {
      const user = await invitation(token);
      if (!user.password_hash || !user.totp_secret_enc)
        throw new PeopleError('conflict', 'set a password first');
      const step = totpStep(box.open(user.totp_secret_enc, user.id), code);
      if (step === undefined)
        throw new PeopleError('invalid', 'code: not the current code of the authenticator');
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('users')
          .set({
            status: 'enabled',
            totp_confirmed: true,
            totp_last_step: step,
            invite_token_hash: null,
            invite_expires_at: null,
            updated_at: new Date(),
          })
          .where('id', '=', user.id)
          .where('status', '=', 'invited')
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1)
          throw new PeopleError('not_found', 'no such invitation, or it was used');
        await trx
          .insertInto('recovery_codes')
          .values(
            codes.map((c) => ({ user_id: user.id, code_hash: sha256(normaliseRecovery(c)), used_at: null })),
          )
          .execute();
      });
      return { user, recoveryCodes: codes };
    },

    /**
     * Email, password and a current code (or an unused recovery code); every failure looks the same to the
     * caller. A merchant person's email may exist at several merchants: `mchNo` picks one, else the account
     * whose password matches.
     */
    async signIn(
      kind: Scope['kind'],
      input: { email: string; password: string; code: string; mchNo?: string | undefined },
      client: ClientInfo,
    ): Promise<SignInResult> {
      let q = db
        .selectFrom('users')
        .selectAll()
        .where(sql<boolean>`lower(email) = ${input.email.trim().toLowerCase()}`)
        .where('status', '!=', 'invited');
      q = kind === 'operator' ? q.where('mch_no', '=', '') : q.where('mch_no', '!=', '');
      if (kind === 'merchant' && input.mchNo) q = q.where('mch_no', '=', input.mchNo);
      const candidates = await q.orderBy('created_at').limit(5).execute();
      let user: UserRow | undefined;
      let passwordOk = false;
      for (const candidate of candidates) {
        if (await verifyPassword(input.password, candidate.password_hash ?? DECOY_HASH)) {
          user = candidate;
          passwordOk = true;
          break;
        }
      }
      if (candidates.length === 0) await verifyPassword(input.password, DECOY_HASH);
      user ??= candidates.length === 1 ? candidates[0] : undefined;
      if (!user) return { ok: false, reason: candidates.length ? 'wrong password' : 'unknown email' };
      const failing = user;
      const fail = async (reason: string): Promise<SignInResult> => {
        // Counted only while not locked: ten in a row lock for 15 minutes and start the count again.
        await db
          .updateTable('users')
          .set({
            failed_signins: sql`case when failed_signins + 1 >= ${LOCK_AFTER_FAILURES} then 0 else failed_signins + 1 end`,
            locked_until: sql`case when failed_signins + 1 >= ${LOCK_AFTER_FAILURES} then now() + ${`${LOCK_MINUTES} minutes`}::interval else locked_until end`,
          })
          .where('id', '=', failing.id)
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', new Date())]))
          .execute();
        return { ok: false, user: failing, reason };
      };
      if (user.status !== 'enabled') return { ok: false, user, reason: `account ${user.status}` };
      if (user.locked_until && user.locked_until.getTime() > Date.now())
        return { ok: false, user, reason: 'account locked' };
      if (!passwordOk) return fail('wrong password');
      if (!user.totp_secret_enc) return fail('no authenticator');

      let via: 'totp' | 'recovery_code';
      if (/^\d{6}$/.test(input.code.trim())) {
        const step = totpStep(box.open(user.totp_secret_enc, user.id), input.code.trim());
        if (step === undefined) return fail('wrong code');
        const used = await db
          .updateTable('users')
          .set({ totp_last_step: step })
          .where('id', '=', user.id)
          .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return fail('code already used');
        via = 'totp';
      } else {
        const used = await db
          .updateTable('recovery_codes')
          .set({ used_at: new Date() })
          .where('user_id', '=', user.id)
          .where('code_hash', '=', sha256(normaliseRecovery(input.code)))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return fail('wrong recovery code');
        via = 'recovery_code';
      }

      const sessionSecret = secret(32);
      const csrfToken = secret(24);
      const session = await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ failed_signins: 0 }).where('id', '=', user.id).execute();
        return trx
          .insertInto('user_sessions')
          .values({
            secret_hash: sha256(sessionSecret),
            user_id: user.id,
            csrf_token: csrfToken,
            ip: client.ip.slice(0, 100),
            user_agent: client.userAgent.slice(0, 500),
            ended_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      });
      return { ok: true, user, sessionId: session.id, sessionSecret, csrfToken, via };
    },

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
