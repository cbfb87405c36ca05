import type { Logger } from '@agentpay/logger';
import { traceparentOr } from '@agentpay/proto';
import { type Clock, startBackgroundLoop } from '@agentpay/runtime';
import type { Kysely } from 'kysely';
import type { Database, PayOrderRow } from '../db/schema.js';
import type { Upstream } from '../upstream/router.client.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import { claimExpired, deleteAbandonedCreating, releaseSweepClaim } from './pay-order.repository.js';
import { moveOrder } from './pay-order.transition.js';

export interface ExpirySweepDeps {
  db: Kysely<Database>;
  logger: Logger;
  upstream: Upstream;
  subject: string;
  /** Pause between rounds, ms (EXPIRY_SWEEP_INTERVAL_MS). */
  intervalMs: number;
  batch: number;
  leaseMs: number;
  /** CREATE_LEASE_MS: openings abandoned longer than this past their lease are removed. */
  createLeaseMs: number;
  /** Which orders have expired: by this clock's time. */
  clock: Clock;
}

export interface ExpirySweep {
  /** One full round (every claimable expired order); answers how many orders it looked at. */
  runOnce(): Promise<number>;
  /** Stops the loop and waits for a round in progress. */
  stop(): Promise<void>;
}

/**
 * Ends wait/progress orders whose expiredTime passed: asks upstream first (a paid order becomes
 * success, never timeout), else closes the account upstream and sets `timeout`. Orders are claimed
 * with a lease (FOR UPDATE SKIP LOCKED), so several replicas share the work without doing it twice.
 */
export function startExpirySweep(deps: ExpirySweepDeps): ExpirySweep {
  const { db, logger, upstream, clock } = deps;
  const transitions = { db, logger, subject: deps.subject };

  /** Settles one expired order; false when it must stay open for the next round. */
  async function expire(order: PayOrderRow): Promise<boolean> {
    const traceparent = traceparentOr(undefined);
    const ref = {
      routeId: order.route_id ?? '',
      orderNo: order.order_no,
      upstreamRef: order.upstream_ref ?? '',
    };
    let state = await upstream.queryVirtualAccount(ref, traceparent);
    if (state.status === 'wait') state = await upstream.closeVirtualAccount(ref, traceparent);
    if (state.status === 'wait') {
      logger.warn(
        { orderNo: order.order_no },
        'upstream did not close an expired order; retrying next round',
      );
      return false;
    }
    // An upstream close of an expired order is its timeout (see decideFromUpstream).
    await moveOrder(transitions, order.order_no, (current) =>
      decideFromUpstream(current, state, { now: clock.now(), traceparent, logger }),
    );
    return true;
  }

  async function runOnce(): Promise<number> {
    const abandoned = await deleteAbandonedCreating(db, deps.createLeaseMs);
    if (abandoned > 0)
      logger.warn({ abandoned }, 'removed pay order openings abandoned by a crashed request');
    let seen = 0;
    // Released only when the round ends: released at once, the same round would claim them again.
    const retry: string[] = [];
    try {
      for (;;) {
        const claimed = await claimExpired(db, deps.batch, deps.leaseMs, clock.now());
        for (const order of claimed) {
          try {
            if (!(await expire(order))) retry.push(order.order_no);
          } catch (err) {
            logger.warn({ err, orderNo: order.order_no }, 'could not expire pay order; retrying next round');
            retry.push(order.order_no);
          }
        }
        seen += claimed.length;
        if (claimed.length < deps.batch) return seen;
      }
    } finally {
      for (const orderNo of retry) await releaseSweepClaim(db, orderNo).catch(() => {});
    }
  }

  // Every EXPIRY_SWEEP_INTERVAL_MS, the first one interval after start; 0 leaves only runOnce (tests).
  const loop = startBackgroundLoop({
    name: 'expiry sweep',
    logger,
    intervalMs: deps.intervalMs,
    runAtStart: false,
    round: runOnce,
  });
  return { runOnce: loop.runOnce, stop: loop.stop };
}
