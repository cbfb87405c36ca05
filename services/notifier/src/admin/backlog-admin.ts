import type { FastifyInstance } from '@agentpay/http';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { backlog, failingEndpoints } from '../deliveries/delivery-backlog.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Hours back that a given-up delivery still counts as failing: a day by default, a week at most. */
const windowHours = z.coerce.number().int().min(1).max(168).default(24);

const backlogQuery = z.object({ hours: windowHours }).strict();
const failingQuery = z
  .object({
    hours: windowHours,
    mchNo: z.string().min(1).max(32).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

/**
 * The callback backlog and the failing endpoints (README "Admin API"), inside the admin scope of
 * registerAdminApi, behind its bearer token.
 */
export function registerBacklogAdmin(admin: FastifyInstance, deps: { db: Kysely<Database> }): void {
  const badRequest = (error: z.ZodError) => {
    const issue = error.issues[0];
    return {
      error: 'bad_request',
      message: `${issue?.path.join('.') || 'query'}: ${issue?.message}`,
    };
  };

  admin.get('/callbacks/backlog', async (request, reply) => {
    const query = backlogQuery.safeParse(request.query ?? {});
    if (!query.success) return reply.code(400).send(badRequest(query.error));
    const b = await backlog(deps.db, query.data.hours);
    return {
      ...b,
      windowHours: query.data.hours,
      oldestDueAt: iso(b.oldestDueAt),
      oldestPendingAt: iso(b.oldestPendingAt),
    };
  });

  admin.get('/callbacks/failing-endpoints', async (request, reply) => {
    const query = failingQuery.safeParse(request.query ?? {});
    if (!query.success) return reply.code(400).send(badRequest(query.error));
    const rows = await failingEndpoints(deps.db, {
      windowHours: query.data.hours,
      mchNo: query.data.mchNo,
      limit: query.data.limit,
    });
    return {
      windowHours: query.data.hours,
      endpoints: rows.map((e) => ({
        ...e,
        oldestPendingAt: iso(e.oldestPendingAt),
        lastFailedAt: e.lastFailedAt.toISOString(),
      })),
    };
  });
}
