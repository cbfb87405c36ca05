import type { Logger } from '@agentpay/logger';
import type {
  InquirePayeeRequest__Output,
  InquirePayeeResponse,
  PayoutRef__Output,
  SubmitPayoutRequest__Output,
  SubmitPayoutResponse,
  UpstreamPayout,
} from '@agentpay/proto';
import type { Kysely } from 'kysely';
import {
  type PayoutState,
  UpstreamNotFoundError,
  UpstreamUnavailableError,
} from '../adapters/channel-adapter.js';
import type { Database, RouteRow } from '../db/schema.js';
import { instantText, requireCentavos, requireText } from '../grpc-args.js';
import type { Channels } from '../routes/channels.js';
import type { Breakers } from '../routing/circuit-breaker.js';
import { withFailover } from '../routing/failover.js';
import type { RouteSelector } from '../routing/route-selector.js';
import { toAppError } from '../routing/upstream-errors.js';
import {
  findPayout,
  recordPayoutOutcome,
  recordPayoutRefs,
  recordPayoutSent,
} from './channel-payout.repository.js';
import { publicPayeeCode } from './payee-code.js';

/** A channel's answer to a payout, or the stand-in for one that never came (a timeout). */
type SubmitAnswer = {
  status: 'progress' | 'fail';
  upstreamRef: string;
  claveRastreo?: string | undefined;
  senderBank?: string | undefined;
  refusal?: string | undefined;
  unanswered?: boolean;
};

/** Payee inquiries and payouts: on a selected route, with each route's own payee codes. */
export function createPayoutService(deps: {
  db: Kysely<Database>;
  selector: RouteSelector;
  channels: Channels;
  breakers: Breakers;
  logger: Logger;
}) {
  const { db, selector, channels, breakers, logger } = deps;

  const upstreamCode = (route: RouteRow, publicCode: string | undefined) =>
    publicCode === undefined ? '' : (route.code_map[publicCode] ?? '');

  const service = {
    async inquire(request: InquirePayeeRequest__Output): Promise<InquirePayeeResponse> {
      const mchNo = requireText(request.mch_no, 'mch_no');
      const payeeType = requireText(request.payee_type, 'payee_type');
      const payeeAccount = requireText(request.payee_account, 'payee_account');
      const publicCode = publicPayeeCode(payeeType, payeeAccount, request.payee_code);
      const routes = await selector.forPayee(mchNo, payeeType, publicCode);
      try {
        const { result } = await withFailover(
          routes,
          (route) => {
            const channel = channels.of(route);
            return channel.adapter.inquire(channel.route, {
              payeeType,
              payeeAccount,
              payeeName: request.payee_name,
              upstreamCode: upstreamCode(route, publicCode),
            });
          },
          { logger, operation: 'InquirePayee', breakers },
        );
        return { status: result };
      } catch (err) {
        throw toAppError(err, { logger, operation: 'InquirePayee' });
      }
    },

    /**
     * Submits a payout on the first route that takes it. A failure that may have reached the channel
     * (a timeout) is not failed over, since a second route could pay twice: the payout is answered as
     * `progress` on that route and settles by notice or QueryPayout.
     */
    async submit(request: SubmitPayoutRequest__Output): Promise<SubmitPayoutResponse> {
      const mchNo = requireText(request.mch_no, 'mch_no');
      const transferNo = requireText(request.transfer_no, 'transfer_no');
      const amount = requireCentavos(request.amount, 'amount');
      const payeeType = requireText(request.payee_type, 'payee_type');
      const payeeAccount = requireText(request.payee_account, 'payee_account');
      const publicCode = publicPayeeCode(payeeType, payeeAccount, request.payee_code);
      const routes = await selector.forPayee(mchNo, payeeType, publicCode);
      try {
        const { route, result } = await withFailover(
          routes,
          async (r): Promise<SubmitAnswer> => {
            const channel = channels.of(r);
            // Recorded before it is sent, so the route's record of it (and its day) survives a crash mid-call.
            await recordPayoutSent(db, r.id, transferNo, amount);
            try {
              return await channel.adapter.submitPayout(channel.route, {
                transferNo,
                amount,
                payeeType,
                payeeAccount,
                payeeName: request.payee_name,
                upstreamCode: upstreamCode(r, publicCode),
                reason: request.reason,
              });
            } catch (err) {
              if (!(err instanceof UpstreamUnavailableError) || !err.ambiguous) {
                // The route did not take it (the next route may): a failure in this route's figures.
                await recordPayoutOutcome(db, r.id, transferNo, 'fail');
                throw err;
              }
              logger.warn(
                { routeId: r.id, transferNo, reason: err.message },
                'payout outcome unknown; kept on this route as in progress',
              );
              return { status: 'progress', upstreamRef: '', unanswered: true };
            }
          },
          // A payout kept after a timeout was still a timeout: it counts against the route's breaker.
          { logger, operation: 'SubmitPayout', breakers, unhealthy: (answer) => answer.unanswered === true },
        );
        if (result.status === 'fail')
          logger.warn(
            { routeId: route.id, transferNo, refusal: result.refusal },
            'payout refused by the channel',
          );
        await recordPayoutRefs(db, route.id, transferNo, {
          upstreamRef: result.upstreamRef,
          claveRastreo: result.claveRastreo,
        });
        await recordPayoutOutcome(db, route.id, transferNo, result.status);
        return {
          route_id: route.id,
          status: result.status,
          upstream_ref: result.upstreamRef,
          clave_rastreo: result.claveRastreo ?? '',
          sender_bank: result.senderBank ?? '',
        };
      } catch (err) {
        throw toAppError(err, { logger, operation: 'SubmitPayout' });
      }
    },

    /**
     * The payout's state on its recorded route. A payout submitted without an answer (upstream_ref '')
     * that the channel does not know was never accepted: `fail`. With no route recorded (the submission's
     * answer was lost before a route was known), see `find`.
     */
    async query(ref: PayoutRef__Output): Promise<UpstreamPayout> {
      const transferNo = requireText(ref.transfer_no, 'transfer_no');
      if (!ref.route_id) return find(transferNo);
      const route = await selector.byId(ref.route_id);
      try {
        const channel = channels.of(route);
        const sent = await findPayout(db, route.id, { transferNo });
        const state = await channel.adapter.queryPayout(channel.route, {
          transferNo,
          upstreamRef: ref.upstream_ref || sent?.upstream_ref || '',
          sentAt: sent?.sent_at,
        });
        await recordPayoutRefs(db, route.id, transferNo, state);
        await recordPayoutOutcome(db, route.id, transferNo, state.status, state.finishedAt);
        return {
          status: state.status,
          finished_at: instantText(state.finishedAt),
          route_id: '',
          upstream_ref: '',
          clave_rastreo: state.claveRastreo ?? '',
          cep_url: state.cepUrl ?? '',
          sender_bank: state.senderBank ?? '',
        };
      } catch (err) {
        if (err instanceof UpstreamNotFoundError && !ref.upstream_ref)
          return {
            status: 'fail',
            finished_at: '',
            route_id: '',
            upstream_ref: '',
            clave_rastreo: '',
            cep_url: '',
            sender_bank: '',
          };
        throw toAppError(err, { logger, operation: 'QueryPayout', routeId: route.id });
      }
    },
  };

  /**
   * Asks every route that serves payouts, enabled or not, for the transfer by its number, all at once: the
   * first that holds it answers, with its route and reference, without waiting for the others, so a route
   * that hangs until its own timeout never keeps the answer of the one that has it past the caller's
   * deadline. Only when every route answers that it never took it is the payout `fail`; a route that
   * cannot be asked, while no other holds it, leaves the answer unknown (UPSTREAM_UNAVAILABLE), and the
   * caller asks again later.
   */
  async function find(transferNo: string): Promise<UpstreamPayout> {
    const routes = await selector.payoutCandidates();
    type Asked = { route: RouteRow; state: PayoutState } | { route: RouteRow; err: unknown };
    const ask = async (route: RouteRow): Promise<Asked> => {
      try {
        const channel = channels.of(route);
        const sent = await findPayout(db, route.id, { transferNo });
        const state = await channel.adapter.queryPayout(channel.route, {
          transferNo,
          upstreamRef: sent?.upstream_ref ?? '',
          sentAt: sent?.sent_at,
        });
        return { route, state };
      } catch (err) {
        return { route, err };
      }
    };
    const answers: Asked[] = [];
    const holder = await new Promise<{ route: RouteRow; state: PayoutState } | undefined>((resolve) => {
      if (routes.length === 0) resolve(undefined);
      for (const route of routes)
        void ask(route).then((answer) => {
          answers.push(answer);
          if ('state' in answer) resolve(answer);
          else if (answers.length === routes.length) resolve(undefined);
        });
    });
    if (holder) {
      const { route, state } = holder;
      logger.warn({ transferNo, routeId: route.id }, 'payout with no recorded route found on a route');
      // Its channel id, so the channel's later notices about it find it.
      await recordPayoutRefs(db, route.id, transferNo, state);
      await recordPayoutOutcome(db, route.id, transferNo, state.status, state.finishedAt);
      return {
        status: state.status,
        finished_at: instantText(state.finishedAt),
        route_id: route.id,
        upstream_ref: state.upstreamRef ?? '',
        clave_rastreo: state.claveRastreo ?? '',
        cep_url: state.cepUrl ?? '',
        sender_bank: state.senderBank ?? '',
      };
    }
    // In the routes' order, so the route named is the same whichever answered first.
    const unanswered = routes
      .map((route) => answers.find((a) => a.route.id === route.id))
      .find((a) => a !== undefined && 'err' in a && !(a.err instanceof UpstreamNotFoundError));
    if (unanswered && 'err' in unanswered)
      throw toAppError(unanswered.err, { logger, operation: 'QueryPayout', routeId: unanswered.route.id });
    logger.warn({ transferNo, routes: routes.length }, 'no route holds the payout; it was never taken');
    return {
      status: 'fail',
      finished_at: '',
      route_id: '',
      upstream_ref: '',
      clave_rastreo: '',
      cep_url: '',
      sender_bank: '',
    };
  }

  return service;
}

export type PayoutService = ReturnType<typeof createPayoutService>;
