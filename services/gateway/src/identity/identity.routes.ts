import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import type { Actor } from './actor.js';
import type { AuditLog } from './audit-log.js';
import { clientOf, sessionCookie } from './authorize.js';
import type { PeopleService } from './people.service.js';
import type { Scope } from './people-common.js';
import { PeopleError } from './people-errors.js';
import { code, newToken, parse, password, personOnly, signIn, userIdOf } from './people-schemas.js';
import { allows, type Permission } from './permissions.js';

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
export function registerIdentityRoutes(app: FastifyInstance, o: IdentityOptions) {
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
