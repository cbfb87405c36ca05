import { sql } from 'kysely';
import type { UserRow } from '../db/schema.js';
import { DECOY_HASH, sha256, verifyPassword } from './passwords.js';
import { type ClientInfo, type PeopleServiceDeps, type Scope, secret } from './people-common.js';
import { normaliseRecovery } from './recovery-codes.js';
import { totpStep } from './totp.js';

export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MINUTES = 15;

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

export function createPeopleSignIn(deps: PeopleServiceDeps) {
  const { db, box } = deps;

  return {
    /**
     * Whether `code` is a current code of the person's authenticator that was not used before (a second
     * person's confirmation, e.g. approving a batch payout); a code that passes is spent. `userId`: the
     * users row's id (an actor's id without its `user:`).
     */
    async confirmCode(userId: string, code: string): Promise<boolean> {
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .where('status', '=', 'enabled')
        .executeTakeFirst();
      if (!user?.totp_secret_enc) return false;
      const step = totpStep(box.open(user.totp_secret_enc, user.id), code.trim());
      if (step === undefined) return false;
      const used = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', user.id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
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
  };
}
