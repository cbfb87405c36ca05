import { randomUUID } from 'node:crypto';
import { statusChangedEvent } from '@agentpay/api';
import type { Logger } from '@agentpay/logger';
import { enqueueEvent } from '@agentpay/messaging';
import type { Transaction } from 'kysely';
import type { Database, Submission, TransferRow } from '../db/schema.js';
import type { PayoutCepFacts } from '../upstream/router.client.js';
import { toTransfer } from './transfer.mapper.js';
import { type RouteFacts, updateTransferStatus } from './transfer.repository.js';
import { FINISHED, type TransferStatus, transitionOf } from './transfer.state-machine.js';
import { insertTransferHistory } from './transfer-list.repository.js';

export interface TransitionDeps {
  logger: Logger;
  /** `${EVENTS_SUBJECT_PREFIX}.transfer.status_changed` */
  subject: string;
}

export interface StatusChange {
  to: TransferStatus;
  /** W3C traceparent of the request or job making the change; carried onto the event. */
  traceparent: string;
  /** When the transfer finished, for success/fail/close; default now. */
  finishedAt?: Date | undefined;
  /** The payout's SPEI tracking key as upstream reported it with this change; '' or absent when it did not. */
  claveRastreo?: string | undefined;
  /** How the submission ended, recorded as the transfer leaves `submitting`. */
  submission?: Submission | undefined;
  /**
   * Where the payout went, as reported with this change (the submission's answer, a notice, a query):
   * recorded in the same update, so the change's event carries it; a route already known stays.
   */
  route?: RouteFacts | undefined;
  /** The payout's CEP facts reported with this change; a fact already known stays. */
  cep?: PayoutCepFacts | undefined;
}

/**
 * The one way a transfer's status changes: a conditional update (still at the status and version it was
 * read at, and the state machine allows the move), its history row and, when the move is announced,
 * exactly one OrderStatusChanged outbox row, in the caller's transaction. Undefined when the transfer moved meanwhile;
 * the caller re-reads and decides again.
 */
export async function changeStatus(
  trx: Transaction<Database>,
  deps: TransitionDeps,
  transfer: TransferRow,
  change: StatusChange,
): Promise<TransferRow | undefined> {
  const from = transfer.status;
  const transition = transitionOf(from, change.to);
  if (!transition) throw new Error(`forbidden transfer transition ${from} -> ${change.to}`);
  const updated = await updateTransferStatus(trx, {
    transferNo: transfer.transfer_no,
    from,
    version: transfer.version,
    to: change.to,
    set: {
      ...(change.submission ? { submission: change.submission } : {}),
      ...(FINISHED.has(change.to) ? { finish_time: change.finishedAt ?? new Date() } : {}),
    },
    claveRastreo: change.claveRastreo ?? '',
    route: change.route,
    cep: change.cep,
  });
  if (!updated) return undefined;
  await insertTransferHistory(trx, {
    transferNo: updated.transfer_no,
    from,
    to: change.to,
    version: Number(updated.version),
  });
  if (transition.announce) {
    const eventId = randomUUID();
    const event = statusChangedEvent({
      eventId,
      order: { kind: 'transfer', transfer: toTransfer(updated) },
      number: updated.transfer_no,
      mchNo: updated.mch_no,
      appId: updated.app_id,
      notifyUrl: updated.notify_url,
      from,
      to: change.to,
      version: updated.version,
      occurredAt: updated.updated_at,
      traceparent: change.traceparent,
      routeId: updated.route_id,
      upstreamRef: updated.upstream_ref,
    });
    await enqueueEvent(trx, deps.subject, event);
  }
  deps.logger.info(
    { transferNo: updated.transfer_no, from, to: change.to, version: updated.version },
    'transfer status changed',
  );
  return updated;
}
