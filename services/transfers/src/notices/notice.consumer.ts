import type { Logger } from '@agentpay/logger';
import {
  type EventConsumer,
  type NatsConnection,
  type NoticeFailure,
  startNoticeConsumer,
} from '@agentpay/messaging';
import { decodeEvent } from '@agentpay/proto';
import type { Registry } from '@agentpay/telemetry';
import { isAppError } from '@agentpay/wire';
import type { PayoutNotice, TransferService } from '../transfers/transfer.service.js';
import { UPSTREAM_OUTCOMES } from '../transfers/transfer.state-machine.js';

/** The payout notice a NoticeReceived event carries; undefined when it carries none or a malformed one. */
export function decodePayoutNotice(text: string): PayoutNotice | undefined {
  const event = decodeEvent('NoticeReceived', text);
  const payout = event.payout;
  if (!payout?.transfer_no || !event.notice_id) return undefined;
  const status = UPSTREAM_OUTCOMES.find((s) => s === payout.status);
  if (!status) return undefined;
  const finishedAt = payout.finished_at ? new Date(payout.finished_at) : undefined;
  return {
    noticeId: event.notice_id,
    transferNo: payout.transfer_no,
    status,
    finishedAt: finishedAt && !Number.isNaN(finishedAt.getTime()) ? finishedAt : undefined,
    claveRastreo: payout.clave_rastreo,
    cep: { senderBank: payout.sender_bank, cepUrl: payout.cep_url },
    routeId: payout.route_id,
    upstreamRef: payout.upstream_ref,
    traceparent: event.traceparent,
  };
}

function classify(err: unknown): NoticeFailure {
  if (isAppError(err) && err.codeName === 'TRANSFER_NOT_FOUND') return 'unknown_target';
  if (isAppError(err) && err.codeName === 'INVALID_PARAMETER') return 'invalid';
  // Includes a transfer still being submitted: its outcome is applied once the submission settled.
  return 'transient';
}

/** Applies the payout notices the upstream-router publishes (`<prefix>.notice.payout`). */
export function startPayoutNoticeConsumer(deps: {
  nc: NatsConnection;
  logger: Logger;
  registry: Registry;
  transfers: Pick<TransferService, 'applyNotice'>;
  stream: string;
  durable: string;
  subject: string;
  concurrency: number;
  retryDelayMs: number;
}): EventConsumer {
  const { transfers, ...rest } = deps;
  return startNoticeConsumer({
    ...rest,
    service: 'transfers',
    decode: decodePayoutNotice,
    apply: async (notice) => {
      await transfers.applyNotice(notice);
    },
    classify,
  });
}
