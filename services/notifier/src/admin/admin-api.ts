import { bearerTokenMatches, type FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AttemptRow, Database, DeliveryRow } from '../db/schema.js';
import { rescheduleNow } from '../deliveries/delivery.service.js';
import {
  attemptsOf,
  deliveriesByOrder,
  deliveryById,
  failingDeliveries,
} from '../deliveries/delivery-admin.repository.js';
import { registerBacklogAdmin } from './backlog-admin.js';

export interface AdminApiDeps {
  db: Kysely<Database>;
  logger: Logger;
  /** NOTIFIER_ADMIN_TOKEN: only the gateway holds it; operators reach these routes through its admin port. */
  adminToken: string;
  /** Wakes this replica's worker after a resend (others hear the NOTIFY). */
  kick: () => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const listQuery = z.object({
  orderNo: z.string().min(1).max(64),
  kind: z.enum(['pay', 'transfer']).optional(),
  mchNo: z.string().min(1).max(32).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

// `failing=true`: one merchant's deliveries whose last attempt failed, newest first, paged by `cursor`
// (the `next` of the previous page); what the merchant dashboard shows as recent failures.
const failingQuery = z.object({
  failing: z.literal('true'),
  mchNo: z.string().min(1).max(32),
  cursor: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z_[0-9a-f-]{36}$/i, 'the next of the previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function attemptView(a: AttemptRow) {
  return {
    number: a.number,
    startedAt: a.started_at.toISOString(),
    finishedAt: iso(a.finished_at),
    outcome: a.outcome,
    httpStatus: a.http_status,
    latencyMs: a.latency_ms,
    response: a.response_excerpt,
    error: a.error,
    worker: a.worker,
  };
}

/** A delivery as operators see it; `inFlight` is a pending delivery with a live lease. */
function deliveryView(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    eventId: d.event_id,
    kind: d.kind,
    mchNo: d.mch_no,
    appId: d.app_id || null,
    orderNo: d.order_no,
    version: d.version,
    fromStatus: d.from_status || null,
    toStatus: d.to_status,
    occurredAt: iso(d.occurred_at),
    notifyUrl: d.notify_url || null,
    status: d.status,
    inFlight: d.status === 'pending' && d.lease_until !== null && d.lease_until.getTime() > Date.now(),
    attemptCount: d.attempt_count,
    nextAttemptAt: iso(d.next_attempt_at),
    lastHttpStatus: d.last_http_status,
    lastError: d.last_error,
    supersededBy: d.superseded_by,
    deliveredAt: iso(d.delivered_at),
    traceId: d.trace_id,
    createdAt: d.created_at.toISOString(),
    updatedAt: d.updated_at.toISOString(),
    /** The signed callback body, exactly as sent. */
    body: d.body || null,
    attempts: attempts.filter((a) => a.delivery_id === d.id).map(attemptView),
  };
}

async function withAttempts(db: Kysely<Database>, rows: DeliveryRow[]) {
  const attempts = await attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => deliveryView(r, attempts));
}

/**
 * The callback admin API under /admin, behind the bearer token: deliveries of an order with their
 * attempts, one delivery, and resend.
 */
export function registerAdminApi(app: FastifyInstance, deps: AdminApiDeps): void {
  void app.register(
    async (admin) => {
      admin.addHook('onRequest', async (request, reply) => {
        if (!bearerTokenMatches(request.headers.authorization, deps.adminToken)) {
          return reply.code(401).send({ error: 'unauthorized', message: 'missing or wrong bearer token' });
        }
      });

      admin.get('/deliveries', async (request, reply) => {
        if ((request.query as Record<string, unknown> | undefined)?.['failing'] !== undefined) {
          const failing = failingQuery.safeParse(request.query);
          if (!failing.success) {
            const issue = failing.error.issues[0];
            return reply.code(400).send({
              error: 'bad_request',
              message: `${issue?.path.join('.') || 'query'}: ${issue?.message}`,
            });
          }
          const [at, id] = failing.data.cursor?.split('_') ?? [];
          const rows = await failingDeliveries(deps.db, {
            mchNo: failing.data.mchNo,
            before: at && id ? { at, id } : undefined,
            limit: failing.data.limit + 1,
          });
          const page = rows.slice(0, failing.data.limit);
          const last = page.at(-1);
          return {
            deliveries: await withAttempts(deps.db, page),
            ...(rows.length > page.length && last ? { next: `${last.cursor_at}_${last.id}` } : {}),
          };
        }
        const query = listQuery.safeParse(request.query);
        if (!query.success) {
          const issue = query.error.issues[0];
          return reply.code(400).send({
            error: 'bad_request',
            message: `${issue?.path.join('.') || 'query'}: ${issue?.message}`,
          });
        }
        const rows = await deliveriesByOrder(deps.db, query.data);
        return { deliveries: await withAttempts(deps.db, rows) };
      });

      admin.get<{ Params: { id: string } }>('/deliveries/:id', async (request, reply) => {
        const row = UUID.test(request.params.id) ? await deliveryById(deps.db, request.params.id) : undefined;
        if (!row) return reply.code(404).send({ error: 'not_found', message: 'no such delivery' });
        return (await withAttempts(deps.db, [row]))[0];
      });

      admin.post<{ Params: { id: string } }>('/deliveries/:id/resend', async (request, reply) => {
        const { id } = request.params;
        const existing = UUID.test(id) ? await deliveryById(deps.db, id) : undefined;
        if (!existing) return reply.code(404).send({ error: 'not_found', message: 'no such delivery' });
        if (existing.status === 'skipped') {
          return reply
            .code(409)
            .send({ error: 'conflict', message: 'the order has no notifyUrl; nothing to send' });
        }
        const row = await rescheduleNow(deps.db, id);
        if (!row) {
          return reply
            .code(409)
            .send({ error: 'conflict', message: 'an attempt is in flight; try again when it finishes' });
        }
        deps.kick();
        deps.logger.info({ deliveryId: id, previousStatus: existing.status }, 'delivery resend scheduled');
        return (await withAttempts(deps.db, [row]))[0];
      });

      registerBacklogAdmin(admin, { db: deps.db });
    },
    { prefix: '/admin' },
  );
}
