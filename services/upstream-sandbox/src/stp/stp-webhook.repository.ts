import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, StpWebhookAttemptRow, StpWebhookKind, StpWebhookRow } from '../db/schema.js';

/**
 * Queues a webhook in the caller's transaction, so an order's change and its webhook commit together.
 * `claimForMs` claims it at once for a delivery the caller makes itself (attempt 1, leased that long).
 */
export async function enqueueWebhook(
  trx: Transaction<Database>,
  w: { orderId: number; kind: StpWebhookKind; url: string; body: string; claimForMs?: number },
): Promise<StpWebhookRow> {
  return trx
    .insertInto('stp_webhooks')
    .values({
      id: `stw_${randomUUID().replaceAll('-', '')}`,
      order_id: w.orderId,
      kind: w.kind,
      url: w.url,
      body: w.body,
      ...(w.claimForMs === undefined
        ? {}
        : { attempts: 1, next_attempt_at: sql<Date>`now() + make_interval(secs => ${w.claimForMs / 1000})` }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes up to `limit` due webhooks, pushing their next attempt `leaseMs` ahead (see notice.repository). */
export async function claimDueWebhooks(
  db: Kysely<Database>,
  opts: { limit: number; leaseMs: number },
): Promise<StpWebhookRow[]> {
  return db
    .updateTable('stp_webhooks')
    .set({
      attempts: sql`attempts + 1`,
      next_attempt_at: sql`now() + make_interval(secs => ${opts.leaseMs / 1000})`,
    })
    .where(
      'id',
      'in',
      db
        .selectFrom('stp_webhooks')
        .select('id')
        .where('delivered_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(opts.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** Ends a webhook the company answered; `claimed` limits it to that attempt, when one is given. */
export async function markWebhookDelivered(
  db: Kysely<Database> | Transaction<Database>,
  webhook: { id: string; attempts?: number },
  status: number,
): Promise<void> {
  await db
    .updateTable('stp_webhooks')
    .set({ delivered_at: sql`now()`, last_status: status, last_error: null })
    .where('id', '=', webhook.id)
    .where('delivered_at', 'is', null)
    .$if(webhook.attempts !== undefined, (q) => q.where('attempts', '=', webhook.attempts ?? 0))
    .execute();
}

/** Records a failed attempt: due again after `retryInMs`, or given up when that is undefined. */
export async function markWebhookFailed(
  db: Kysely<Database>,
  claimed: { id: string; attempts: number },
  failure: { status: number | null; error: string; retryInMs: number | undefined },
): Promise<void> {
  await db
    .updateTable('stp_webhooks')
    .set(
      failure.retryInMs === undefined
        ? { gave_up_at: sql`now()`, last_status: failure.status, last_error: failure.error }
        : {
            next_attempt_at: sql`now() + make_interval(secs => ${failure.retryInMs / 1000})`,
            last_status: failure.status,
            last_error: failure.error,
          },
    )
    .where('id', '=', claimed.id)
    .where('attempts', '=', claimed.attempts)
    .where('delivered_at', 'is', null)
    .execute();
}

export async function recordAttempt(
  db: Kysely<Database> | Transaction<Database>,
  a: {
    webhookId: string;
    resend: boolean;
    status: number | null;
    response: string | null;
    error: string | null;
  },
): Promise<void> {
  await db
    .insertInto('stp_webhook_attempts')
    .values({
      webhook_id: a.webhookId,
      resend: a.resend,
      http_status: a.status,
      response: a.response,
      error: a.error,
    })
    .execute();
}

export async function webhooksOf(db: Kysely<Database>, orderId: number): Promise<StpWebhookRow[]> {
  return db
    .selectFrom('stp_webhooks')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function attemptsOf(
  db: Kysely<Database>,
  webhookIds: string[],
): Promise<StpWebhookAttemptRow[]> {
  if (webhookIds.length === 0) return [];
  return db
    .selectFrom('stp_webhook_attempts')
    .selectAll()
    .where('webhook_id', 'in', webhookIds)
    .orderBy('id')
    .execute();
}
