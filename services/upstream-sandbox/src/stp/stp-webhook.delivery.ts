// Calls a company back (CONTRACT.md section 16 "Calls STP makes to the platform"): the exact answer STP
// expects ends a webhook; anything else (another status or body, a timeout, a refused connection) is
// retried with the notices' backoff. An abono's answer decides its order: confirmar LQ, devolver D.
import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import type { Database, StpWebhookKind, StpWebhookRow } from '../db/schema.js';
import { answerAbono } from './stp-order.repository.js';
import {
  claimDueWebhooks,
  markWebhookDelivered,
  markWebhookFailed,
  recordAttempt,
} from './stp-webhook.repository.js';

export interface DeliveryOptions {
  maxAttempts: number;
  backoffMs: number;
  timeoutMs: number;
}

/** What one attempt came to, in the words of the protocol. */
export type Outcome =
  | { kind: 'confirmar'; status: number }
  | { kind: 'devolver'; status: number; causa: number }
  | { kind: 'recibido'; status: number }
  | { kind: 'failed'; status: number | null; error: string };

const RESPONSE_KEPT = 1_000;
const BATCH = 20;

/** What the company's answer means for a webhook of `kind`. */
export function readAnswer(kind: StpWebhookKind, status: number, text: string): Outcome {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'failed', status, error: `HTTP ${status}, not JSON` };
  }
  const mensaje = (body as { mensaje?: unknown } | null)?.mensaje;
  if (kind === 'cambio-estado') {
    return status === 200 && mensaje === 'recibido'
      ? { kind: 'recibido', status }
      : { kind: 'failed', status, error: `HTTP ${status}, not {"mensaje":"recibido"}` };
  }
  if (status === 200 && mensaje === 'confirmar') return { kind: 'confirmar', status };
  if (status === 400 && mensaje === 'devolver') {
    const id = (body as { id?: unknown }).id;
    const causa = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : NaN;
    if (Number.isSafeInteger(causa) && causa > 0) return { kind: 'devolver', status, causa };
    return { kind: 'failed', status, error: 'devolver without a causa id' };
  }
  return { kind: 'failed', status, error: `HTTP ${status}, neither confirmar (200) nor devolver (400)` };
}

/** Sends `webhook` once and records the attempt; applies a decisive answer to its order. */
export async function attemptWebhook(
  db: Kysely<Database>,
  webhook: StpWebhookRow,
  opts: { timeoutMs: number; resend: boolean; signal?: AbortSignal },
): Promise<Outcome> {
  let outcome: Outcome;
  let response: string | null = null;
  try {
    const answer = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: webhook.body,
      signal: opts.signal
        ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)])
        : AbortSignal.timeout(opts.timeoutMs),
    });
    response = (await answer.text()).slice(0, RESPONSE_KEPT);
    outcome = readAnswer(webhook.kind, answer.status, response);
  } catch (err) {
    const error =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    outcome = { kind: 'failed', status: null, error };
  }
  await db.transaction().execute(async (trx) => {
    await recordAttempt(trx, {
      webhookId: webhook.id,
      resend: opts.resend,
      status: outcome.status,
      response,
      error: outcome.kind === 'failed' ? outcome.error : null,
    });
    if (outcome.kind === 'failed') return;
    // The first decisive answer decides the money; a later one (a resend) is recorded, nothing more.
    if (outcome.kind === 'confirmar')
      await answerAbono(trx, webhook.order_id, { answer: 'confirmar', estado: 'LQ' });
    if (outcome.kind === 'devolver')
      await answerAbono(trx, webhook.order_id, {
        answer: 'devolver',
        estado: 'D',
        causa_devolucion: outcome.causa,
      });
    // A resend's answer ends the webhook too; a scheduled attempt's only if it is still the current one.
    await markWebhookDelivered(
      trx,
      opts.resend ? { id: webhook.id } : { id: webhook.id, attempts: webhook.attempts },
      outcome.status,
    );
  });
  return outcome;
}

/** After a failed scheduled attempt: due again with backoff, or given up after the last one. */
export async function scheduleRetry(
  db: Kysely<Database>,
  webhook: StpWebhookRow,
  outcome: Outcome & { kind: 'failed' },
  options: DeliveryOptions,
): Promise<boolean> {
  const retryInMs =
    webhook.attempts >= options.maxAttempts ? undefined : options.backoffMs * 2 ** (webhook.attempts - 1);
  await markWebhookFailed(db, webhook, { status: outcome.status, error: outcome.error, retryInMs });
  return retryInMs === undefined;
}

/** Sends every due webhook once; answers how many were attempted. */
export async function deliverDueWebhooks(
  db: Kysely<Database>,
  logger: Logger,
  options: DeliveryOptions,
  signal: AbortSignal,
): Promise<number> {
  const due = await claimDueWebhooks(db, { limit: BATCH, leaseMs: options.timeoutMs + 5_000 });
  await Promise.all(
    due.map(async (webhook) => {
      const outcome = await attemptWebhook(db, webhook, {
        timeoutMs: options.timeoutMs,
        resend: false,
        signal,
      });
      if (outcome.kind !== 'failed') return;
      const gaveUp = await scheduleRetry(db, webhook, outcome, options);
      logger.warn(
        {
          webhookId: webhook.id,
          kind: webhook.kind,
          attempt: webhook.attempts,
          status: outcome.status,
          gaveUp,
        },
        `stp webhook failed: ${outcome.error}`,
      );
    }),
  );
  return due.length;
}
