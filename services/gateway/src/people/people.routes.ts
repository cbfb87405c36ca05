import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { schemaProblem } from '../admin/schema-problem.js';
import { type AccountDashboardDeps, registerAccountDashboard } from '../dashboard/account-dashboard.js';
import { type LedgerDashboardDeps, registerLedgerDashboard } from '../dashboard/ledger-dashboard.js';
import { type OrdersDashboardDeps, registerOrdersDashboard } from '../dashboard/orders-dashboard.js';
import type { Database } from '../db/schema.js';
import type { Actor } from './actor.js';
import { type AuditLog, auditRows, csvHeader, csvLine, listAudit, verifyAudit } from './audit-log.js';
import { clientOf, installAuthorization, SYSTEM_BOOTSTRAP, sessionCookie } from './authorize.js';
import { DASHBOARD_PERMISSIONS } from './dashboard.permissions.js';
import type { PeopleService } from './people.service.js';
import { checkRoles, type Scope, userView } from './people-common.js';
import { PeopleError, statusOf } from './people-errors.js';
import { TOKEN_MAX_DAYS } from './people-tokens.service.js';
import { ADMIN_PERMISSIONS, allows, type Permission } from './permissions.js';

const email = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'an email address');
const invite = z
  .object({
    email,
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.string().max(32)).min(1).max(10),
  })
  .strict();
const password = z.object({ password: z.string().max(200) }).strict();
const code = z.object({ code: z.string().min(1).max(32) }).strict();
const signIn = z
  .object({
    email: z.string().max(320),
    password: z.string().max(200),
    code: z.string().max(32),
    mchNo: z.string().min(1).max(32).optional(),
  })
  .strict();
const newToken = z
  .object({
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.string().max(32)).min(1).max(10),
    expiresInDays: z.number().int().min(1).max(TOKEN_MAX_DAYS),
  })
  .strict();
const updateUser = z
  .object({
    roles: z.array(z.string().max(32)).min(1).max(10).optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
    unlock: z.literal(true).optional(),
  })
  .strict();
const usersQuery = z.object({
  search: z.string().trim().max(100).optional(),
  cursor: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
const instant = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time')
  .transform((s) => new Date(s));
const auditQuery = z.object({
  actor: z.string().max(320).optional(),
  action: z.string().max(100).optional(),
  target: z.string().max(300).optional(),
  mchNo: z.string().max(32).optional(),
  from: instant.optional(),
  to: instant.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new PeopleError('invalid', schemaProblem(result.error));
}

const userIdOf = (actor: Actor | undefined) =>
  actor?.kind === 'person' ? actor.id.slice('user:'.length) : undefined;

function personOnly(actor: Actor | undefined): string {
  const id = userIdOf(actor);
  if (!id) throw new PeopleError('invalid', `${actor?.id ?? 'nobody'} is not a person: sign in as one`);
  return id;
}

interface IdentityOptions {
  people: PeopleService;
  audit: AuditLog;
  kind: Scope['kind'];
  /** Where the browser's calls live: `/console/api` or `/dashboard/api`. */
  apiPrefix: string;
  /** Where a person's own sessions and tokens live: `/admin/me` or `/dashboard/api/me`. */
  mePrefix: string;
  cookieName: string;
  production: boolean;
  /** The surface's permission table: `/me` answers which of its routes this person may call. */
  permissions: readonly Permission[];
}

/**
 * Invitations, sign-in and sign-out, and a person's own sessions and tokens (CONTRACT.md section 17),
 * the same for operators (console) and a merchant's people (dashboard).
 */
function registerIdentityRoutes(app: FastifyInstance, o: IdentityOptions) {
  const { people, audit } = o;
  type Token = { Params: { token: string } };

  const invitationAudit = async (
    request: FastifyRequest,
    action: string,
    outcome: 'success' | 'failure',
    reason?: string,
  ) => {
    const token = (request.params as { token: string }).token;
    const invited = await people.invitation(token).catch(() => undefined);
    request.auditNote = { done: true };
    await audit.append({
      actor: {
        id: 'anonymous',
        label: invited?.email ?? 'unknown invitation',
        via: 'invitation',
        roles: [],
        ...clientOf(request),
      },
      action,
      target: invited ? `email:${invited.email}` : 'invitation',
      outcome,
      reason,
      mchNo: invited?.mchNo,
    });
  };

  app.get<Token>(`${o.apiPrefix}/invitations/:token`, async (request) =>
    people.invitation(request.params.token),
  );

  app.post<Token>(`${o.apiPrefix}/invitations/:token`, async (request) => {
    const body = parse(password, request.body);
    try {
      const enrolment = await people.acceptInvitation(request.params.token, body.password);
      await invitationAudit(request, 'invitation.accept', 'success');
      return enrolment;
    } catch (err) {
      if (err instanceof PeopleError && err.kind !== 'not_found')
        await invitationAudit(request, 'invitation.accept', 'failure', err.message);
      throw err;
    }
  });

  app.post<Token>(`${o.apiPrefix}/invitations/:token/confirm`, async (request) => {
    const body = parse(code, request.body);
    const invited = await people.invitation(request.params.token);
    request.auditNote = { done: true };
    try {
      const { user, recoveryCodes } = await people.confirmInvitation(request.params.token, body.code);
      await audit.append({
        actor: {
          id: `user:${user.id}`,
          label: user.email,
          via: 'invitation',
          roles: user.roles,
          ...clientOf(request),
        },
        action: 'invitation.confirm',
        target: `user:${user.id}`,
        outcome: 'success',
        mchNo: user.mch_no || undefined,
      });
      return { recoveryCodes };
    } catch (err) {
      await audit.append({
        actor: { id: 'anonymous', label: invited.email, via: 'invitation', roles: [], ...clientOf(request) },
        action: 'invitation.confirm',
        target: `email:${invited.email}`,
        outcome: 'failure',
        reason: err instanceof Error ? err.message : 'failed',
        mchNo: invited.mchNo,
      });
      throw err;
    }
  });

  app.post(`${o.apiPrefix}/session`, async (request, reply) => {
    const body = parse(signIn, request.body);
    const result = await people.signIn(o.kind, body, clientOf(request));
    request.auditNote = { done: true };
    const user = result.user;
    await audit.append({
      actor: {
        id: user ? `user:${user.id}` : 'anonymous',
        label: user?.email ?? body.email.slice(0, 320),
        via: 'sign_in',
        roles: result.ok ? (user?.roles ?? []) : [],
        ...clientOf(request),
      },
      action: 'session.create',
      target: user ? `user:${user.id}` : `email:${body.email.slice(0, 320)}`,
      outcome: result.ok ? 'success' : 'failure',
      status: result.ok ? 200 : 401,
      reason: result.ok
        ? `signed in with ${result.via === 'totp' ? 'a TOTP code' : 'a recovery code'}`
        : result.reason,
      mchNo: user?.mch_no || undefined,
    });
    if (!result.ok) {
      return reply
        .code(401)
        .send({ error: 'unauthorized', message: 'wrong email, password or code, or the account is locked' });
    }
    reply.header('set-cookie', sessionCookie(o.cookieName, result.sessionSecret, o.production));
    return {
      csrfToken: result.csrfToken,
      user: {
        id: result.user.id,
        email: result.user.email,
        roles: result.user.roles,
        ...(result.user.mch_no ? { mchNo: result.user.mch_no } : {}),
      },
    };
  });

  app.delete(`${o.apiPrefix}/session`, async (request, reply) => {
    if (request.actor?.sessionId) await people.endSession(request.actor.sessionId);
    return reply
      .header('set-cookie', sessionCookie(o.cookieName, '', o.production))
      .code(204)
      .send();
  });

  app.get(o.mePrefix, async (request) => {
    const actor = request.actor as Actor;
    const id = userIdOf(actor);
    const user = id ? await people.person(actor.scope, id) : undefined;
    return {
      id: actor.id,
      label: actor.label,
      ...(user ? { email: user.email, name: user.name, userId: user.id } : {}),
      roles: actor.roles,
      via: actor.via,
      ...(actor.scope.kind === 'merchant' ? { mchNo: actor.scope.mchNo } : {}),
      ...(actor.tokenId ? { tokenId: actor.tokenId } : {}),
      // What the pages show: an action the person may not take is not offered (the API refuses it anyway).
      may: o.permissions
        .filter((p) => p.allow !== 'public' && allows(p.allow, actor.roles))
        .map((p) => `${p.method} ${p.url}`),
    };
  });

  app.get(`${o.mePrefix}/sessions`, async (request) => {
    const id = userIdOf(request.actor);
    return { sessions: id ? await people.sessions(id, request.actor?.sessionId) : [] };
  });

  app.delete<{ Params: { id: string } }>(`${o.mePrefix}/sessions/:id`, async (request, reply) => {
    await people.endOwnSession(personOnly(request.actor), request.params.id);
    return reply.code(204).send();
  });

  app.post(`${o.mePrefix}/tokens`, async (request, reply) => {
    personOnly(request.actor);
    const body = parse(newToken, request.body);
    const created = await people.createToken(request.actor as Actor, body);
    request.auditNote = {
      target: `token:${created.id}`,
      after: { id: created.id, name: created.name, roles: created.roles, expiresAt: created.expiresAt },
    };
    return reply.code(201).send(created);
  });

  app.get(`${o.mePrefix}/tokens`, async (request) => {
    const id = userIdOf(request.actor);
    return { tokens: id ? await people.tokens(id) : [] };
  });

  app.delete<{ Params: { id: string } }>(`${o.mePrefix}/tokens/:id`, async (request, reply) => {
    await people.revokeToken(personOnly(request.actor), request.params.id);
    return reply.code(204).send();
  });
}

export interface OperatorPeopleDeps {
  db: Kysely<Database>;
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
    permissions: ADMIN_PERMISSIONS,
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
    return listAudit(deps.db, query);
  });

  app.get('/admin/audit/verify', async () => verifyAudit(deps.db));

  app.get('/admin/audit/export', async (request, reply) => {
    const query = parse(auditQuery, request.query);
    const db = deps.db;
    async function* csv() {
      yield csvHeader();
      for await (const row of auditRows(db, query)) yield csvLine(row);
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

export interface DashboardDeps {
  db: Kysely<Database>;
  people: PeopleService;
  audit: AuditLog;
  logger: Logger;
  production: boolean;
  cookieName: string;
  publicBaseUrl: string;
  /** Keys, the platform key and callback failures (dashboard/account-dashboard.ts). */
  account: AccountDashboardDeps;
  /** The merchant's orders and transfers, their timelines, resending a callback (dashboard/orders-dashboard.ts). */
  orders: OrdersDashboardDeps;
  /** The balance and statement (dashboard/ledger-dashboard.ts). */
  ledger: LedgerDashboardDeps;
}

/**
 * The merchant dashboard's identity calls on the public port (`/dashboard/api/...`), behind the same
 * authorisation hook with the dashboard's permission table: a merchant's people see only their merchant.
 */
export function registerDashboardApi(app: FastifyInstance, deps: DashboardDeps): void {
  void app.register(async (dash) => {
    dash.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) =>
      peopleErrorReply(error, reply, deps.logger),
    );
    installAuthorization(dash, {
      people: deps.people,
      audit: deps.audit,
      logger: deps.logger,
      kind: 'merchant',
      permissions: DASHBOARD_PERMISSIONS,
      cookieName: deps.cookieName,
      production: deps.production,
    });
    registerIdentityRoutes(dash, {
      people: deps.people,
      audit: deps.audit,
      kind: 'merchant',
      apiPrefix: '/dashboard/api',
      mePrefix: '/dashboard/api/me',
      permissions: DASHBOARD_PERMISSIONS,
      cookieName: deps.cookieName,
      production: deps.production,
    });

    const scopeOf = (request: FastifyRequest): Extract<Scope, { kind: 'merchant' }> => {
      const scope = (request.actor as Actor).scope;
      if (scope.kind !== 'merchant') throw new PeopleError('forbidden', 'not a merchant person');
      return scope;
    };

    registerAccountDashboard(dash, deps.account);
    registerOrdersDashboard(dash, deps.orders);
    registerLedgerDashboard(dash, deps.ledger);

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
      return listAudit(deps.db, { ...query, mchNo: scopeOf(request).mchNo });
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
  });
}
