import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Actor } from './actor.js';
import { type AuditLog, csvHeader, csvLine } from './audit-log.js';
import { SYSTEM_BOOTSTRAP } from './authorize.js';
import { registerIdentityRoutes } from './identity.routes.js';
import type { PeopleService } from './people.service.js';
import { checkRoles, type Scope, userView } from './people-common.js';
import { PeopleError, statusOf } from './people-errors.js';
import { auditQuery, invite, parse, updateUser, usersQuery } from './people-schemas.js';
import type { Permission } from './permissions.js';

export interface OperatorPeopleDeps {
  people: PeopleService;
  audit: AuditLog;
  production: boolean;
  cookieName: string;
  /** Origin of the admin port as operators reach it, for invitation links: `<origin>/console/invitations/<token>`. */
  consoleBaseUrl: string;
  /** Origin of the public port, for merchant people's links: `<origin>/dashboard/invitations/<token>`. */
  publicBaseUrl: string;
  /** Throws the admin API's not_found for an unknown merchant. */
  merchantExists: (mchNo: string) => Promise<unknown>;
  /** The admin port's whole permission table: `/admin/me` tells the console what its person may call. */
  permissions: readonly Permission[];
}

/** The operators' people routes on the admin port: browser calls, users, merchants' first people, the audit log. */
export function registerOperatorPeople(app: FastifyInstance, deps: OperatorPeopleDeps): void {
  const { people } = deps;
  registerIdentityRoutes(app, {
    people,
    audit: deps.audit,
    kind: 'operator',
    apiPrefix: '/console/api',
    mePrefix: '/admin/me',
    permissions: deps.permissions,
    cookieName: deps.cookieName,
    production: deps.production,
  });

  app.post('/admin/users', async (request, reply) => {
    const body = parse(invite, request.body);
    const actor = request.actor as Actor;
    if (actor.id === SYSTEM_BOOTSTRAP && !checkRoles({ kind: 'operator' }, body.roles).includes('owner')) {
      throw new PeopleError('forbidden', 'ADMIN_TOKEN in production only creates the first owner');
    }
    const { user, inviteToken } = await people.invite({ kind: 'operator' }, body, actor.id);
    request.auditNote = { target: `user:${user.id}`, after: userView(user) };
    return reply.code(201).send({
      id: user.id,
      inviteUrl: `${deps.consoleBaseUrl}/console/invitations/${inviteToken}`,
      inviteToken,
    });
  });

  app.get('/admin/users', async (request) =>
    people.usersPage({ kind: 'operator' }, parse(usersQuery, request.query)),
  );

  app.patch<{ Params: { id: string } }>('/admin/users/:id', async (request) => {
    const body = parse(updateUser, request.body);
    const { before, after } = await people.updateUser(
      { kind: 'operator' },
      request.params.id,
      body,
      request.actor as Actor,
    );
    request.auditNote = { target: `user:${after.id}`, before, after };
    return after;
  });

  type ByMerchant = { Params: { mchNo: string } };
  app.post<ByMerchant>('/admin/merchants/:mchNo/users', async (request, reply) => {
    const body = parse(invite, request.body);
    await deps.merchantExists(request.params.mchNo);
    const scope: Scope = { kind: 'merchant', mchNo: request.params.mchNo };
    const { user, inviteToken } = await people.invite(scope, body, (request.actor as Actor).id);
    request.auditNote = { target: `user:${user.id}`, after: userView(user), mchNo: scope.mchNo };
    return reply.code(201).send({
      id: user.id,
      inviteUrl: `${deps.publicBaseUrl}/dashboard/invitations/${inviteToken}`,
      inviteToken,
    });
  });

  app.get<ByMerchant>('/admin/merchants/:mchNo/users', async (request) => {
    await deps.merchantExists(request.params.mchNo);
    return { users: await people.users({ kind: 'merchant', mchNo: request.params.mchNo }) };
  });

  app.get('/admin/audit', async (request) => {
    const query = parse(auditQuery, request.query);
    return deps.audit.list(query);
  });

  app.get('/admin/audit/verify', async () => deps.audit.verify());

  app.get('/admin/audit/export', async (request, reply) => {
    const query = parse(auditQuery, request.query);
    const { audit } = deps;
    async function* csv() {
      yield csvHeader();
      for await (const row of audit.rows(query)) yield csvLine(row);
    }
    const name = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(csv()));
  });
}

/** Answers PeopleError and body errors as `{error, message}` with their status. */
export function peopleErrorReply(
  error: Error & { statusCode?: number; status?: unknown },
  reply: FastifyReply,
  logger: Logger,
) {
  if (error instanceof PeopleError) {
    return reply.code(statusOf(error.kind)).send({ error: error.kind, message: error.message });
  }
  // Fastify's own (statusCode) and the merchant port's body parser's (status) refusals of a malformed body.
  const status = error.statusCode ?? (typeof error.status === 'number' ? error.status : undefined);
  if (status !== undefined && status >= 400 && status < 500) {
    return reply.code(status).send({ error: 'bad_request', message: error.message });
  }
  logger.error({ err: error }, 'people request failed');
  return reply.code(500).send({ error: 'internal', message: 'internal error' });
}

export interface MerchantPeopleDeps {
  people: PeopleService;
  audit: AuditLog;
  production: boolean;
  cookieName: string;
  publicBaseUrl: string;
  /** The dashboard's whole permission table: `/dashboard/api/me` tells the page what its person may call. */
  permissions: readonly Permission[];
}

/**
 * The merchant dashboard's identity calls on the public port (`/dashboard/api/...`): sign-in, sessions,
 * tokens, the merchant's people and its security history. A merchant's people see only their merchant.
 */
export function registerMerchantPeople(dash: FastifyInstance, deps: MerchantPeopleDeps): void {
  registerIdentityRoutes(dash, {
    people: deps.people,
    audit: deps.audit,
    kind: 'merchant',
    apiPrefix: '/dashboard/api',
    mePrefix: '/dashboard/api/me',
    permissions: deps.permissions,
    cookieName: deps.cookieName,
    production: deps.production,
  });

  const scopeOf = (request: FastifyRequest): Extract<Scope, { kind: 'merchant' }> => {
    const scope = (request.actor as Actor).scope;
    if (scope.kind !== 'merchant') throw new PeopleError('forbidden', 'not a merchant person');
    return scope;
  };

  dash.get('/dashboard/api/users', async (request) => ({
    users: await deps.people.users(scopeOf(request)),
  }));

  dash.post('/dashboard/api/users', async (request, reply) => {
    const body = parse(invite, request.body);
    const actor = request.actor as Actor;
    if (body.roles.includes('owner') && !actor.roles.includes('owner')) {
      throw new PeopleError('forbidden', "only the merchant's owner grants the owner role");
    }
    const { user, inviteToken } = await deps.people.invite(scopeOf(request), body, actor.id);
    request.auditNote = { target: `user:${user.id}`, after: userView(user) };
    return reply.code(201).send({
      id: user.id,
      inviteUrl: `${deps.publicBaseUrl}/dashboard/invitations/${inviteToken}`,
      inviteToken,
    });
  });

  // The security history: what the merchant's people did and what was done to the merchant, nothing else.
  dash.get('/dashboard/api/audit', async (request) => {
    const query = parse(auditQuery, request.query);
    return deps.audit.list({ ...query, mchNo: scopeOf(request).mchNo });
  });

  dash.patch<{ Params: { id: string } }>('/dashboard/api/users/:id', async (request) => {
    const body = parse(updateUser, request.body);
    const { before, after } = await deps.people.updateUser(
      scopeOf(request),
      request.params.id,
      body,
      request.actor as Actor,
    );
    request.auditNote = { target: `user:${after.id}`, before, after };
    return after;
  });
}
