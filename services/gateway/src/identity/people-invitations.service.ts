import { sql } from 'kysely';
import type { UserRow } from '../db/schema.js';
import { hashPassword, passwordProblem, sha256 } from './passwords.js';
import { checkRoles, mchOf, type PeopleServiceDeps, type Scope, secret } from './people-common.js';
import { PeopleError } from './people-errors.js';
import { normaliseRecovery, RECOVERY_CODES, recoveryCode } from './recovery-codes.js';
import { enrolment, newTotpSecret, totpStep } from './totp.js';

export const INVITATION_HOURS = 72;

export function createPeopleInvitations(deps: PeopleServiceDeps) {
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

  return {
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
  };
}
