import type { FastifyRequest } from '@agentpay/http';

// The ONE permission table (CONTRACT.md section 17), one per port: every route behind the authorisation hook
// (identity/authorize.ts), the roles that may call it, the audit action and whether it changes something.
// Each module writes its own entries in its *.permissions.ts; src/permissions.ts puts them together with
// permissionTable below. A route missing from the table answers 403 to everyone (deny by default);
// services/gateway/README.md "Who may call what" is generated from it (scripts/permissions-docs.ts) and a
// test fails when it is stale.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Permission {
  method: HttpMethod;
  /** The route's pattern as registered with Fastify (`/admin/merchants/:mchNo`). */
  url: string;
  /**
   * Who may call it: roles (any one suffices), `signedIn` (any person or system:dev: their own sessions
   * and tokens), or `public` (no credential: invitations and sign-in, which audit themselves).
   */
  allow: readonly string[] | 'signedIn' | 'public';
  /** The audit log's action name. */
  action: string;
  /** It changes something: every call is audited (success, failure or denied). */
  changes: boolean;
  /** A read that is audited all the same (the audit log's own reads). */
  auditRead?: boolean;
  /** What the audit entry names as its target; default: the route's parameters. */
  target?: (request: FastifyRequest) => string;
  /**
   * Four eyes (CONTRACT.md section 17): when this answers true for a request, the authorisation hook hands
   * it to `fourEyes.intercept` of the admin API's deps instead of the route handler.
   */
  fourEyes?: (request: FastifyRequest) => boolean;
  /** One line for the docs' table. */
  note?: string;
}

/**
 * One port's table from the modules' entries, in order. Two entries for one route would leave the second
 * unread (the lookup takes one), so a route written twice is refused here, at start.
 */
export function permissionTable(...parts: (readonly Permission[])[]): readonly Permission[] {
  const table = parts.flat();
  const seen = new Set<string>();
  for (const p of table) {
    const key = `${p.method} ${p.url}`;
    if (seen.has(key)) throw new Error(`permission table: ${key} written twice`);
    seen.add(key);
  }
  return table;
}

/** Looks permissions up by `METHOD url-pattern`; HEAD is GET's. */
export function permissionIndex(table: readonly Permission[]) {
  const byKey = new Map(table.map((p) => [`${p.method} ${p.url}`, p]));
  return (method: string, url: string | undefined): Permission | undefined =>
    url === undefined ? undefined : byKey.get(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}

/** Whether `roles` may call a route that allows `allow`. */
export function allows(allow: Permission['allow'], roles: readonly string[]): boolean {
  if (allow === 'public' || allow === 'signedIn') return true;
  return roles.some((r) => allow.includes(r));
}
