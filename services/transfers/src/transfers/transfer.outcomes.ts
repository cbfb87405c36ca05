import type { Logger } from '@agentpay/logger';
import type { Clock } from '@agentpay/runtime';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, Submission, TransferRow } from '../db/schema.js';
import type { PayoutCepFacts } from '../upstream/router.client.js';
import { attachRoute, findTransferByNo, type RouteFacts, recordClaveRastreo } from './transfer.repository.js';
import { OUTCOME_PATHS, type TransferStatus, type UpstreamOutcome } from './transfer.state-machine.js';
import { changeStatus, type TransitionDeps } from './transfer.transition.js';

export interface OutcomeDeps extends TransitionDeps {
  db: Kysely<Database>;
  logger: Logger;
  /** How often a caller waiting on a concurrent submission looks again. */
  pollMs: number;
  /** Where the waits read the time. */
  clock: Clock;
}

/** Versions race only with other status changes, and a transfer changes status a few times at most. */
const MAX_ATTEMPTS = 5;

class LostRace extends Error {}

/** How a transfer moves once it exists: waiting out a submission, and applying what upstream reports. */
export function createTransferOutcomes(deps: OutcomeDeps) {
  const { db, logger, pollMs, clock } = deps;

  /** The transfer once it has left `submitting`; undefined if the submission was withdrawn. */
  async function settled(row: TransferRow, until: number): Promise<TransferRow | undefined> {
    let current: TransferRow | undefined = row;
    while (current?.status === 'submitting') {
      if (clock.now().getTime() + pollMs > until)
        throw new AppError('SERVICE_UNAVAILABLE', 'the transfer is being submitted; query it shortly');
      await clock.sleep(pollMs);
      current = await findTransferByNo(db, row.transfer_no);
    }
    return current;
  }

  /** Runs `path` from `row` in one transaction; undefined when another writer moved the transfer first. */
  async function walk(
    row: TransferRow,
    path: readonly TransferStatus[],
    change: {
      traceparent: string;
      finishedAt?: Date | undefined;
      claveRastreo?: string | undefined;
      route?: RouteFacts | undefined;
      cep?: PayoutCepFacts | undefined;
    },
  ): Promise<TransferRow | undefined> {
    try {
      return await db.transaction().execute(async (trx) => {
        let current = row;
        for (const to of path) {
          const next = await changeStatus(trx, deps, current, { ...change, to });
          if (!next) throw new LostRace();
          current = next;
        }
        return current;
      });
    } catch (err) {
      if (err instanceof LostRace) return undefined;
      throw err;
    }
  }

  /** Applies what upstream reports; a repeat or a contradiction changes nothing. */
  async function applyOutcome(
    transferNo: string,
    outcome: UpstreamOutcome,
    context: {
      traceparent: string;
      finishedAt?: Date | undefined;
      until: number;
      noticeId?: string;
      /** The payout's SPEI tracking key as upstream reported it; '' or absent when it did not. */
      claveRastreo?: string | undefined;
      /** The route upstream reported the outcome on; absent when it did not say. */
      route?: RouteFacts | undefined;
      /** The payout's CEP facts upstream reported with the outcome. */
      cep?: PayoutCepFacts | undefined;
    },
  ): Promise<{ transfer: TransferRow; changed: boolean }> {
    const key = context.claveRastreo ?? '';
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await findTransferByNo(db, transferNo);
      const row = found && (await settled(found, context.until));
      if (!row) throw new AppError('TRANSFER_NOT_FOUND');
      if (key && row.clave_rastreo && key !== row.clave_rastreo) {
        logger.warn(
          { transferNo, known: row.clave_rastreo, reported: key, noticeId: context.noticeId },
          'upstream reports another tracking key for the payout; the first one is kept',
        );
      }
      const path = OUTCOME_PATHS[outcome][row.status];
      if (path === 'done') return { transfer: await factsLearnt(row, key, context.route), changed: false };
      if (path === undefined) {
        // Upstream contradicts a final status (e.g. success for a failed transfer). Answering an error
        // would only make the channel resend it; an operator has to look at this transfer.
        logger.warn(
          { transferNo, status: row.status, outcome, noticeId: context.noticeId },
          'upstream outcome contradicts the transfer status; ignored',
        );
        return { transfer: await factsLearnt(row, key, context.route), changed: false };
      }
      const updated = await walk(row, path, {
        traceparent: context.traceparent,
        finishedAt: context.finishedAt,
        claveRastreo: key,
        route: context.route,
        cep: context.cep,
      });
      if (updated) return { transfer: updated, changed: true };
    }
    throw new AppError('SERVICE_UNAVAILABLE', 'transfer is changing, try again');
  }

  /** Takes a transfer out of `submitting`; `route`: where the router said it sent the payout, if it did. */
  async function walkSubmission(
    row: TransferRow,
    to: 'progress' | 'fail',
    submission: Submission,
    route: RouteFacts | undefined,
    traceparent: string,
    claveRastreo = '',
    cep?: PayoutCepFacts,
  ): Promise<TransferRow | undefined> {
    return db
      .transaction()
      .execute((trx) =>
        changeStatus(trx, deps, row, { to, traceparent, submission, route, claveRastreo, cep }),
      );
  }

  /** The transfer with a tracking key learnt without a status change recorded (when it had none). */
  async function keyLearnt(row: TransferRow, key: string): Promise<TransferRow> {
    if (!key || row.clave_rastreo) return row;
    return (
      (await recordClaveRastreo(db, row.transfer_no, key)) ??
      (await findTransferByNo(db, row.transfer_no)) ??
      row
    );
  }

  /** The transfer with the route learnt without a status change recorded (attachRoute). */
  async function routeLearnt(row: TransferRow, route: RouteFacts | undefined): Promise<TransferRow> {
    if (!route?.routeId) return row;
    return (await attachRoute(db, row.transfer_no, route)) ?? row;
  }

  /** The transfer with what upstream reported learnt, when it reported it without a status change. */
  async function factsLearnt(
    row: TransferRow,
    key: string,
    route: RouteFacts | undefined,
  ): Promise<TransferRow> {
    return keyLearnt(await routeLearnt(row, route), key);
  }

  return { settled, applyOutcome, walkSubmission, keyLearnt, routeLearnt };
}

export type TransferOutcomes = ReturnType<typeof createTransferOutcomes>;
