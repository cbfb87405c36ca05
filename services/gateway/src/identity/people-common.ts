import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { type Actor, MERCHANT_ROLES, OPERATOR_ROLES } from './actor.js';
import { PeopleError } from './people-errors.js';
import type { SecretBox } from './secret-box.js';

/** Whose people: the platform's operators, or one merchant's own team. */
export type Scope = { kind: 'operator' } | { kind: 'merchant'; mchNo: string };

export const mchOf = (scope: Scope) => (scope.kind === 'operator' ? '' : scope.mchNo);
export const rolesOf = (scope: Scope): readonly string[] =>
  scope.kind === 'operator' ? OPERATOR_ROLES : MERCHANT_ROLES;
export const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

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

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export interface PeopleServiceDeps {
  db: Kysely<Database>;
  box: SecretBox;
  /** Shown by authenticator apps beside the account, e.g. "AgentPay". */
  issuer: string;
}

export function actorOf(
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
