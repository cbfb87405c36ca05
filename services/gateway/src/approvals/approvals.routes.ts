import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import { z } from 'zod';
import type { Actor } from '../identity/index.js';
import { badRequest } from '../shared/schema-problem.js';
import type { OperationRegistry } from './admin-operation.js';
import { APPROVAL_STATES } from './approval.repository.js';
import { ApprovalRefusal, type Approvals, approvalView } from './approvals.service.js';

// The approvals' admin API (services/gateway/README.md "Four eyes"), and the interception the authorisation
// hook hands a four-eyes request to instead of its route.

const listQuery = z.strictObject({
  state: z.enum(APPROVAL_STATES, { error: `must be one of ${APPROVAL_STATES.join(', ')}` }).optional(),
  /** `requested`: what I asked for; `waiting`: pending requests of others, what waits for my approval. */
  mine: z.enum(['requested', 'waiting'], { error: 'must be requested or waiting' }).optional(),
  /** Only the requests about one target (`discrepancy:42`, as the approval names it). */
  target: z.string().min(1, 'must not be empty').max(200, 'at most 200 characters').optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'at least 1')
    .max(200, 'at most 200')
    .optional(),
  before: z.string().max(40, 'at most 40 characters').optional(),
});

const reason = z
  .string({ error: 'required, a string' })
  .trim()
  .min(1, 'required')
  .max(500, 'at most 500 characters');

const rejectBody = z.strictObject({ reason });

/** An approval's reason is optional to the API (scripts approve without one); the console always asks for it. */
const approveBody = z.strictObject({ reason: reason.optional() });

const approvalId = z.string().regex(/^apr_[0-9a-f]{24}$/);

export interface FourEyes {
  /**
   * Takes over a request the permission table says needs four eyes: checks it in full as its route would
   * (a refusal is answered at once, and no approval is made), else stores it and answers 202 with the pending
   * approval. The route's handler never runs for it.
   */
  intercept(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

const noActor = (reply: FastifyReply) =>
  reply.code(401).send({ error: 'unauthorized', message: 'no person behind this request' });

export function createFourEyes(deps: { approvals: Approvals; operations: OperationRegistry }): FourEyes {
  return {
    async intercept(request, reply) {
      const actor = request.actor;
      if (!actor) return noActor(reply);
      const operation = deps.operations.byRoute(request.method, request.routeOptions.url);
      if (!operation)
        throw new Error(
          `four eyes asked for ${request.method} ${request.routeOptions.url}, which has no operation`,
        );
      const prepared = await operation.prepare(request);
      if (!prepared.ok) return reply.code(prepared.refusal.status).send(prepared.refusal.body);
      const row = await deps.approvals.request(actor, operation, prepared);
      // The approval's own entry (approval.request, with the request) is written: the hook writes none.
      request.auditNote = { done: true };
      return reply
        .code(202)
        .send({ approval: { id: row.id, state: row.state, action: row.action, summary: row.summary } });
    },
  };
}

/** Registers `/admin/approvals...` on the admin server. */
export function registerApprovals(app: FastifyInstance, deps: { approvals: Approvals }): void {
  const { approvals } = deps;

  const refused = (reply: FastifyReply, err: unknown) => {
    if (err instanceof ApprovalRefusal)
      return reply.code(err.status).send({ error: err.kind, message: err.message });
    throw err;
  };
  const withActor = async (
    request: FastifyRequest,
    reply: FastifyReply,
    run: (actor: Actor) => Promise<unknown>,
  ) => {
    const actor = request.actor;
    if (!actor) return noActor(reply);
    try {
      return await run(actor);
    } catch (err) {
      return refused(reply, err);
    }
  };

  type ById = { Params: { id: string } };
  const known = (reply: FastifyReply, id: string) => {
    if (approvalId.safeParse(id).success) return true;
    void reply.code(404).send({ error: 'not_found', message: `no approval ${id}` });
    return false;
  };

  app.get('/admin/approvals', async (request, reply) => {
    const query = listQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, query.error);
    return withActor(request, reply, async (actor) => {
      const { state, mine, target, limit = 50, before } = query.data;
      const rows = await approvals.list({
        state: mine === 'waiting' ? 'pending' : state,
        requestedBy: mine === 'requested' ? actor.id : undefined,
        notRequestedBy: mine === 'waiting' ? actor.id : undefined,
        target,
        limit,
        before,
      });
      const last = rows.at(-1);
      return { items: rows.map(approvalView), ...(rows.length === limit && last && { next: last.id }) };
    });
  });

  app.get<ById>('/admin/approvals/:id', async (request, reply) => {
    if (!known(reply, request.params.id)) return reply;
    return withActor(request, reply, async () => approvalView(await approvals.get(request.params.id)));
  });

  app.post<ById>('/admin/approvals/:id/approve', async (request, reply) => {
    const body = approveBody.safeParse(request.body ?? {});
    if (!body.success) return badRequest(reply, body.error);
    if (!known(reply, request.params.id)) return reply;
    return withActor(request, reply, async (actor) => {
      const row = await approvals.get(request.params.id);
      // From here the decision writes its own entries (approved, denied or refused, and the execution).
      request.auditNote = { done: true };
      return { approval: approvalView(await approvals.approve(actor, row.id, body.data.reason)) };
    });
  });

  app.post<ById>('/admin/approvals/:id/reject', async (request, reply) => {
    const body = rejectBody.safeParse(request.body);
    if (!body.success) return badRequest(reply, body.error);
    if (!known(reply, request.params.id)) return reply;
    return withActor(request, reply, async (actor) => {
      const rejected = await approvals.reject(actor, request.params.id, body.data.reason);
      request.auditNote = { done: true };
      return { approval: approvalView(rejected) };
    });
  });
}
