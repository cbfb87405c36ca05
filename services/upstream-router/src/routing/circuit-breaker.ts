// One circuit breaker per route, in memory: each router replica judges the routes by the calls it made
// itself. A route whose channel keeps answering "unavailable" is taken out of selection, so orders stop
// paying a connection attempt (or a timeout) for it; after a cool-down one probe call may go through,
// and its outcome closes the breaker or opens it again.

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  /** Unavailable answers, with no success after them and all within `windowMs`, that open the breaker. */
  failureThreshold: number;
  windowMs: number;
  /** How long an open breaker keeps the route out before one probe call may go through. */
  coolDownMs: number;
  now?: () => number;
}

export interface BreakerSnapshot {
  state: BreakerState;
  recentFailures: number;
  failuresTotal: number;
  successesTotal: number;
  skippedTotal: number;
  openedAt?: Date | undefined;
  retryAt?: Date | undefined;
}

/** The right to make one call on a route; report how it went exactly once. */
export interface BreakerPass {
  /** The route answered (whatever it said). */
  succeeded(): void;
  /** The route was unavailable (connection error, timeout, 5xx, refused credentials, misconfigured). */
  failed(): void;
}

interface RouteBreaker {
  /** `open` also covers the half-open phase: it is open until a probe succeeds. */
  open: boolean;
  /** Failure instants since the last success, newest last; pruned to the window. */
  failures: number[];
  openedAt: number;
  probing: boolean;
  failuresTotal: number;
  successesTotal: number;
  skippedTotal: number;
}

export function createBreakers(options: BreakerOptions) {
  const now = options.now ?? Date.now;
  const routes = new Map<string, RouteBreaker>();

  const of = (routeId: string): RouteBreaker => {
    let breaker = routes.get(routeId);
    if (!breaker) {
      breaker = {
        open: false,
        failures: [],
        openedAt: 0,
        probing: false,
        failuresTotal: 0,
        successesTotal: 0,
        skippedTotal: 0,
      };
      routes.set(routeId, breaker);
    }
    return breaker;
  };

  const coolingDown = (b: RouteBreaker, at: number) => b.open && at < b.openedAt + options.coolDownMs;
  const prune = (b: RouteBreaker, at: number) => {
    const since = at - options.windowMs;
    while (b.failures.length > 0 && b.failures[0]! <= since) b.failures.shift();
  };

  return {
    /** Whether selection may offer the route: closed, or cool-down over with no probe under way. */
    admits(routeId: string): boolean {
      const b = routes.get(routeId);
      if (!b?.open) return true;
      return !coolingDown(b, now()) && !b.probing;
    },

    /**
     * A pass to call the route, or undefined when the breaker keeps the route out. Once the cool-down
     * is over, the first caller gets the probe pass and everybody else keeps skipping the route until
     * the probe reports.
     */
    enter(routeId: string): BreakerPass | undefined {
      const b = of(routeId);
      let probe = false;
      if (b.open) {
        if (coolingDown(b, now()) || b.probing) return undefined;
        b.probing = true;
        probe = true;
      }
      let reported = false;
      return {
        succeeded() {
          if (reported) return;
          reported = true;
          b.successesTotal++;
          // A call let through before the breaker opened says nothing about the route now; only the
          // probe closes it.
          if (b.open && !probe) return;
          b.open = false;
          b.probing = false;
          b.failures = [];
        },
        failed() {
          if (reported) return;
          reported = true;
          const at = now();
          b.failuresTotal++;
          if (probe) {
            b.probing = false;
            b.openedAt = at;
            return;
          }
          if (b.open) return;
          b.failures.push(at);
          prune(b, at);
          if (b.failures.length >= options.failureThreshold) {
            b.open = true;
            b.openedAt = at;
          }
        },
      };
    },

    /** Counts a time selection left the route out. */
    skipped(routeId: string): void {
      of(routeId).skippedTotal++;
    },

    /** Forgets what was learnt about the route (an operator re-enabled or reconfigured it). */
    reset(routeId: string): void {
      const b = routes.get(routeId);
      if (!b) return;
      b.open = false;
      b.probing = false;
      b.failures = [];
    },

    snapshot(routeId: string): BreakerSnapshot {
      const b = of(routeId);
      const at = now();
      prune(b, at);
      const state: BreakerState = !b.open ? 'closed' : coolingDown(b, at) ? 'open' : 'half_open';
      return {
        state,
        recentFailures: b.failures.length,
        failuresTotal: b.failuresTotal,
        successesTotal: b.successesTotal,
        skippedTotal: b.skippedTotal,
        openedAt: b.open ? new Date(b.openedAt) : undefined,
        retryAt: b.open ? new Date(b.openedAt + options.coolDownMs) : undefined,
      };
    },
  };
}

export type Breakers = ReturnType<typeof createBreakers>;
