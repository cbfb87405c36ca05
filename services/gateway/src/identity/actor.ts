// Who is acting (CONTRACT.md section 17): a named person (through a browser session or one of their personal
// tokens) or, outside production only, the built-in `system:dev` behind ADMIN_TOKEN. Every admin request has
// exactly one, resolved once by the authorisation hook, and it travels with the admin calls to the services.

/** Operator roles, deny by default: what each may do is the permission table (identity/permissions.ts). */
export const OPERATOR_ROLES = [
  'owner',
  'admin',
  'approver',
  'reconciliation',
  'compliance',
  'support',
  'auditor',
] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A merchant's own people, each seeing only their merchant's data. */
export const MERCHANT_ROLES = ['owner', 'admin', 'finance', 'viewer'] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];

/** The built-in actor of ADMIN_TOKEN outside production: every operator role, audited as such. */
export const SYSTEM_DEV = 'system:dev';

export interface Actor {
  /** `user:<uuid>` for a person; `system:dev` for ADMIN_TOKEN. Two requests by one id are one person. */
  id: string;
  kind: 'person' | 'system';
  /** What the audit log and the services record: the person's email, or `system:dev`. */
  label: string;
  /** Effective roles: the person's, narrowed to the token's when acting through a personal token. */
  roles: readonly string[];
  scope: { kind: 'operator' } | { kind: 'merchant'; mchNo: string };
  via: 'session' | 'token' | 'admin_token';
  sessionId?: string | undefined;
  tokenId?: string | undefined;
  ip: string;
  userAgent: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authorisation hook on every admin request it lets through. */
    actor?: Actor;
  }
}
