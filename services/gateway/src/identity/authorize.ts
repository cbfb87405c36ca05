import { timingSafeEqual } from 'node:crypto';
import {
  bearerTokenMatches,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { type Actor, OPERATOR_ROLES, SYSTEM_DEV } from './actor.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import type { PeopleService } from './people.service.js';
import { SESSION_MAX_MS } from './people-sessions.service.js';
import { TOKEN_PREFIX } from './people-tokens.service.js';
import { allows, type Permission, permissionIndex } from './permissions.js';

/** What a handler adds to its audit entry; the hook writes the entry. */
export interface AuditNote {
  target?: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
  approvalId?: string;
  mchNo?: string;
  /** The handler wrote its own entries (sign-in, invitations): the hook writes none. */
  done?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The permission table's row for this request's route; set by the authorisation hook. */
    permission?: Permission;
    auditNote?: AuditNote;
  }
}

/** The four-eyes extension point: takes over a request its permission says needs a second person. */
export interface FourEyes {
  intercept(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** The actor of ADMIN_TOKEN in production, allowed only to create the first owner while none exists. */
export const SYSTEM_BOOTSTRAP = 'system:bootstrap';

export interface AuthorizationDeps {
  people: PeopleService;
  audit: AuditLog;
  logger: Logger;
  /** Operators on the admin port; a merchant's own people on the dashboard's calls. */
  kind: 'operator' | 'merchant';
  permissions: readonly Permission[];
  cookieName: string;
  /** ADMIN_TOKEN (operators only): system:dev outside production, the first owner's creation in it. */
  adminToken?: string | undefined;
  production: boolean;
  fourEyes?: FourEyes | undefined;
  /** Paths the hook lets through without a credential or a table row (health, metrics, static pages). */
  open?: (request: FastifyRequest) => boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The session cookie: HttpOnly, SameSite=Strict, Path=/, and Secure with a `__Host-` name in production. */
export function sessionCookieName(base: string, production: boolean): string {
  return production ? `__Host-${base}` : base;
}

export function sessionCookie(name: string, value: string, production: boolean): string {
  const maxAge = value ? Math.floor(SESSION_MAX_MS / 1000) : 0;
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${production ? '; Secure' : ''}`;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500),
});

function systemActor(request: FastifyRequest, id: string): Actor {
  return {
    id,
    kind: 'system',
    label: id,
    roles: id === SYSTEM_DEV ? OPERATOR_ROLES : ['owner'],
    scope: { kind: 'operator' },
    via: 'admin_token',
    ...clientOf(request),
  };
}

const unauthorized = (reply: FastifyReply) =>
  reply.code(401).send({ error: 'unauthorized', message: 'sign in, or send a valid bearer token' });

/**
 * THE authorisation point (CONTRACT.md section 17): one onRequest hook resolves who is calling (a personal
 * token, ADMIN_TOKEN outside production, or the session cookie with its CSRF header on every change), then
 * looks the route up in the one permission table: a route not in it is 403 for everyone. Every change and
 * every read of the audit log is written to the audit log before the reply leaves (onSend), refused ones
 * too. A permission whose `fourEyes` says so goes to `fourEyes.intercept` instead of its handler.
 */
export function installAuthorization(app: FastifyInstance, deps: AuthorizationDeps): void {
  const lookup = permissionIndex(deps.permissions);
  app.decorateRequest('permission', undefined);
  app.decorateRequest('auditNote', undefined);

  async function resolve(request: FastifyRequest): Promise<Actor | 'csrf' | undefined> {
    const client = clientOf(request);
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const match = /^Bearer (\S+)$/.exec(authorization);
      if (match?.[1]?.startsWith(TOKEN_PREFIX)) return deps.people.tokenActor(deps.kind, match[1], client);
      if (deps.adminToken && bearerTokenMatches(authorization, deps.adminToken)) {
        if (!deps.production) return systemActor(request, SYSTEM_DEV);
        // Production: ADMIN_TOKEN only brings the first owner in.
        const firstOwner =
          request.method === 'POST' &&
          request.routeOptions.url === '/admin/users' &&
          !(await deps.people.hasOwner({ kind: 'operator' }));
        return firstOwner ? systemActor(request, SYSTEM_BOOTSTRAP) : undefined;
      }
      return undefined;
    }
    const cookie = readCookie(request.headers.cookie, deps.cookieName);
    if (!cookie) return undefined;
    const session = await deps.people.sessionActor(deps.kind, cookie, client);
    if (!session) return undefined;
    if (!SAFE_METHODS.has(request.method)) {
      const csrf = request.headers['x-csrf-token'];
      if (typeof csrf !== 'string' || !sameText(csrf, session.csrfToken)) {
        request.actor = session.actor;
        return 'csrf';
      }
    }
    return session.actor;
  }

  app.addHook('onRequest', async (request, reply) => {
    if (deps.open?.(request)) return;
    const permission = lookup(request.method, request.routeOptions.url);
    request.permission = permission;
    if (permission?.allow === 'public') return;

    const actor = await resolve(request);
    if (actor === undefined) return unauthorized(reply);
    if (actor === 'csrf') {
      return reply
        .code(403)
        .send({ error: 'forbidden', message: 'x-csrf-token missing or wrong for this session' });
    }
    request.actor = actor;
    if (!permission) {
      return reply.code(403).send({ error: 'forbidden', message: 'no permission covers this route' });
    }
    if (!allows(permission.allow, actor.roles)) {
      return reply.code(403).send({
        error: 'forbidden',
        message: `${permission.action} needs one of: ${[permission.allow].flat().join(', ')}`,
      });
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    const permission = request.permission;
    if (permission?.fourEyes && deps.fourEyes && request.actor && permission.fourEyes(request)) {
      return deps.fourEyes.intercept(request, reply);
    }
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const permission = request.permission;
    const note = request.auditNote;
    if (!permission || !request.actor || note?.done) return payload;
    if (!permission.changes && !permission.auditRead) return payload;
    const status = reply.statusCode;
    let body: unknown;
    if (typeof payload === 'string' && payload.length < 65_536 && payload.startsWith('{')) {
      try {
        body = JSON.parse(payload);
      } catch {
        body = undefined;
      }
    }
    const message = (body as { message?: unknown } | undefined)?.message;
    const entry: AuditEntry = {
      actor: request.actor,
      action: permission.action,
      target: note?.target ?? permission.target?.(request) ?? defaultTarget(request),
      outcome: status < 400 ? 'success' : status === 403 ? 'denied' : 'failure',
      status,
      reason: note?.reason ?? (status >= 400 && typeof message === 'string' ? message : undefined),
      before: note?.before,
      after: note?.after ?? (status < 400 && permission.changes ? body : undefined),
      approvalId: note?.approvalId,
      mchNo:
        note?.mchNo ??
        (request.actor.scope.kind === 'merchant'
          ? request.actor.scope.mchNo
          : (request.params as Record<string, string> | undefined)?.['mchNo']),
    };
    try {
      await deps.audit.append(entry);
    } catch (err) {
      deps.logger.error({ err, action: entry.action }, 'audit log append failed');
    }
    return payload;
  });
}

function defaultTarget(request: FastifyRequest): string {
  const params = Object.entries((request.params as Record<string, string> | undefined) ?? {});
  return params.length
    ? params.map(([k, v]) => `${k}:${v}`).join(',')
    : (request.routeOptions.url ?? request.url.split('?')[0] ?? '');
}
