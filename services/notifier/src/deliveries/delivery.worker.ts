import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { listen } from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { type Next, startBackgroundLoop } from '@agentpay/runtime';
import type { Kysely } from 'kysely';
import type { CallbackOutcome, CallbackRequest } from '../callbacks/callback.client.js';
import { DELIVERIES_CHANNEL } from '../db/channels.js';
import type { Database } from '../db/schema.js';
import { claimDueDeliveries, releaseLeases, settleAttempt } from './delivery.service.js';
import { type ClaimedDelivery, msUntilNextDue } from './delivery-lease.repository.js';
import type { EndpointLimits, EndpointSignal } from './endpoint-limits.js';
import { limiter } from './limiter.js';
import { createSuccessSettler } from './settle-batch.js';

export interface DeliveryWorkerOptions {
  db: Kysely<Database>;
  databaseUrl: string;
  logger: Logger;
  /** Identifies this replica on leases and attempts. */
  owner: string;
  /** Sends one callback; never throws. */
  send: (req: CallbackRequest) => Promise<CallbackOutcome>;
  timeoutMs: number;
  allowPrivate: boolean;
  retryScheduleMs: readonly number[];
  /** In flight at once in this replica. */
  concurrency: number;
  /** In flight at once per endpoint, over all replicas: the ceiling of the adaptive limits. */
  endpointConcurrency: number;
  /** This replica's adaptive limit per endpoint (`createEndpointLimits`). */
  endpointLimits: EndpointLimits;
  /** Added to the timeout to make the lease. */
  leaseMarginMs: number;
  pollMs: number;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now. */
  kick(): void;
  /** Stops claiming, lets attempts in flight finish (each bounded by the timeout), releases leases. */
  stop(): Promise<void>;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;

/**
 * Failed attempts settled at once. Each takes a connection for a transaction of several round trips,
 * and timeouts come in waves (every slot of a hanging endpoint times out together): unbounded, a wave
 * took the pool from recording, claiming and settling healthy callbacks (the callback bench's figures
 * before and after this bound: docs/benchmarks.md, "Callbacks with a tenth of endpoints hanging").
 */
export const FAILURE_SETTLE_CONCURRENCY = 4;

/**
 * The delivery loop: claims due deliveries from Postgres under a lease and sends each one concurrently,
 * up to `concurrency` in this replica, `endpointConcurrency` per endpoint over all replicas, and each
 * endpoint's adaptive limit in this replica, so a slow or dead endpoint holds few slots, never all of
 * them. The loop itself never waits on HTTP.
 */
export function startDeliveryWorker(opts: DeliveryWorkerOptions): DeliveryWorker {
  const { db, logger } = opts;
  const leaseMs = opts.timeoutMs + opts.leaseMarginMs;
  const inFlight = new Set<Promise<void>>();
  const settler = createSuccessSettler(db);
  const settleFailure = limiter(FAILURE_SETTLE_CONCURRENCY);
  const limits = opts.endpointLimits;
  let stopping = false;

  // Having claimed anything, look again at once: the scan may have been cut short by one endpoint's
  // backlog, which is now at its limit and left out. Otherwise sleep until the next retry is due, a
  // NOTIFY, a finished attempt, or the poll (which also notices expired leases and freed slots of other
  // replicas).
  const loop = startBackgroundLoop({
    name: 'delivery worker',
    logger,
    intervalMs: opts.pollMs,
    backoff: { firstMs: FIRST_BACKOFF_MS, maxMs: MAX_BACKOFF_MS },
    round: async () => {
      const slots = opts.concurrency - inFlight.size;
      if (slots <= 0) return { claimed: 0, untilDue: undefined };
      const room = limits.room();
      const claimed = await claimDueDeliveries(db, {
        owner: opts.owner,
        slots,
        perEndpoint: opts.endpointConcurrency,
        leaseMs,
        room,
        onLimited: limits.skipped,
      });
      for (const delivery of claimed) {
        limits.started(delivery.endpoint);
        track(attempt(delivery));
      }
      const untilDue = claimed.length === 0 ? await msUntilNextDue(db) : undefined;
      return { claimed: claimed.length, untilDue };
    },
    next: ({ claimed, untilDue }): Next =>
      claimed > 0 ? 'more' : Math.min(opts.pollMs, untilDue ?? opts.pollMs),
  });
  const kick = loop.kick;

  function track(p: Promise<void>) {
    inFlight.add(p);
    void p.finally(() => {
      inFlight.delete(p);
      kick();
    });
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    let signal: EndpointSignal = 'none';
    try {
      signal = await sendAndSettle(delivery);
    } finally {
      // The slot is given back once the result is recorded, as the lease is.
      limits.finished(delivery.endpoint, signal);
    }
  }

  async function sendAndSettle(delivery: ClaimedDelivery): Promise<EndpointSignal> {
    // Plain fields rather than a child logger: a pino child costs several KB and is made per attempt.
    const ids = { deliveryId: delivery.id, eventId: delivery.eventId, traceId: delivery.traceId };
    const outcome = await opts.send({
      url: delivery.notifyUrl,
      body: delivery.body,
      timeoutMs: opts.timeoutMs,
      allowPrivate: opts.allowPrivate,
      headers: {
        traceparent: `00-${delivery.traceId}-${randomBytes(8).toString('hex')}-01`,
        'x-agentpay-delivery-id': delivery.id,
        'x-agentpay-attempt': String(delivery.attemptNumber),
      },
    });
    // The result must reach Postgres, or the lease expires and the callback goes out again; keep trying
    // through a Postgres outage (until shutdown gives up and the lease decides). Successes are settled in
    // batches; a failure needs the per-order lock of `settleAttempt` to decide on supersession.
    for (let tries = 1; ; tries++) {
      try {
        const next = outcome.ok
          ? await settler.settle(delivery, outcome)
          : await settleFailure(() => settleAttempt(db, delivery, outcome, opts.retryScheduleMs));
        const fields = {
          attempt: delivery.attemptNumber,
          endpoint: delivery.endpoint,
          httpStatus: outcome.httpStatus,
          latencyMs: outcome.latencyMs,
          next,
        };
        if (outcome.ok) logger.info({ ...ids, ...fields }, 'callback delivered');
        else logger.warn({ ...ids, ...fields, error: outcome.error }, 'callback attempt failed');
        return signalOf(outcome);
      } catch (err) {
        if (stopping && tries >= 3) {
          logger.error(
            { ...ids, err },
            'could not record the callback attempt; its lease will expire and it may repeat',
          );
          return signalOf(outcome);
        }
        const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (tries - 1), MAX_BACKOFF_MS);
        logger.error({ ...ids, err, retryInMs: backoff }, 'could not record the callback attempt; retrying');
        await sleep(backoff);
      }
    }
  }

  function signalOf(outcome: CallbackOutcome): EndpointSignal {
    // Any answer counts, however slow: the latency measured here includes this process's own event loop,
    // and a busy notifier must not read its own delay as its merchants' and throttle them all.
    if (outcome.httpStatus !== null) return 'answered';
    // A URL that can never work says nothing about how the endpoint copes.
    return outcome.permanent ? 'none' : 'dropped';
  }

  const listener = listen(opts.databaseUrl, DELIVERIES_CHANNEL, logger, kick);
  logger.info(
    {
      owner: opts.owner,
      concurrency: opts.concurrency,
      endpointConcurrency: opts.endpointConcurrency,
      endpointInitialLimit: limits.room().defaultFree,
      retries: opts.retryScheduleMs.length,
      timeoutMs: opts.timeoutMs,
    },
    'delivery worker started',
  );

  let stopped: Promise<void> | undefined;
  return {
    kick,
    stop: () => {
      stopped ??= (async () => {
        stopping = true;
        await loop.stop();
        // Each queued success belongs to an attempt in flight, so this also flushes the settler's queue.
        await Promise.allSettled([...inFlight]);
        await listener.close();
        const released = await releaseLeases(db, opts.owner).catch((err: unknown) => {
          logger.warn({ err }, 'could not release leases; they expire on their own');
          return 0;
        });
        logger.info({ released }, 'delivery worker stopped');
      })();
      return stopped;
    },
  };
}
