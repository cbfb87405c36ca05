// The adaptive per-endpoint limit: how many callbacks one replica has in flight to one endpoint
// (scheme://host:port). AIMD, as TCP's congestion window and Netflix concurrency-limits' AIMDLimit: the
// limit grows by one per limit's worth of answers while the endpoint is busy enough to use it, and halves
// on each attempt that got no answer (timeout, refused, reset), down to 1. A hanging
// endpoint so ends up with one slot per replica, probing it once per timeout, and its due callbacks wait
// (due, unattempted) instead of taking the slots of other merchants. The state is per replica and in
// memory: a replica that starts learns each endpoint again from `initial`.
//
// As in TCP Reno, an endpoint starts in slow start: +1 per answer (the limit doubles each round trip) until
// its first drop, so a merchant with a backlog reaches the ceiling in a few round trips; after a drop it
// grows by one per round trip only (until forgotten).

/** What one finished attempt says about its endpoint. */
export type EndpointSignal =
  /** It answered (any HTTP status) in reasonable time. */
  | 'answered'
  /** No answer (timeout, connection refused or reset, DNS). */
  | 'dropped'
  /** Says nothing about the endpoint (the URL itself was unusable). */
  | 'none';

export interface EndpointLimitsOptions {
  /** Limit of an endpoint this replica has no memory of. */
  initial: number;
  /** Ceiling of every endpoint's limit. */
  max: number;
  /** Clock, for forgetting idle endpoints; default Date.now. */
  now?: () => number;
}

/** The free slots per endpoint to pass to a claim: `free` for the endpoints listed, `defaultFree` for any other. */
export interface EndpointRoom {
  endpoints: string[];
  free: number[];
  defaultFree: number;
  /**
   * The endpoints held back by their adaptive limit: no free slot, and a limit below the ceiling. (One at
   * the ceiling is held back by NOTIFY_ENDPOINT_CONCURRENCY, as it always was.)
   */
  limited: string[];
}

export interface EndpointLimits {
  /** Current limit of the endpoint (whole slots). */
  limit(endpoint: string): number;
  inFlight(endpoint: string): number;
  /** Free slots of every endpoint this replica holds state for, for the next claim. */
  room(): EndpointRoom;
  /** An attempt to the endpoint was claimed. */
  started(endpoint: string): void;
  /** An attempt to the endpoint finished (its result recorded); adjusts the limit. */
  finished(endpoint: string, signal: EndpointSignal): void;
  /** A claim left this many endpoints' due callbacks waiting because they were at their limit. */
  skipped(endpoints: number): void;
  /** For the metrics: endpoints at their limit now, endpoints backed off below `initial`, skips so far. */
  stats(): { atLimit: number; backedOff: number; skipped: number };
}

/** Halving on a drop: a hanging endpoint at 64 is down to 1 after one wave of its attempts timing out. */
const BACKOFF_RATIO = 0.5;
/**
 * An endpoint with nothing in flight for this long is forgotten (its next callback starts at `initial`
 * again): the memory stays bounded by the endpoints recently in trouble, and one whose next retry
 * is an hour away gets a fresh chance.
 */
const FORGET_AFTER_MS = 10 * 60_000;

interface State {
  limit: number;
  inFlight: number;
  /** Answers counted towards the next step up. */
  answers: number;
  /** Below this the limit grows by one per answer (slow start), above it by one per round trip. */
  threshold: number;
  /** When an attempt to it last finished. */
  lastSeen: number;
}

/** The per-endpoint AIMD limits of one replica. */
export function createEndpointLimits(opts: EndpointLimitsOptions): EndpointLimits {
  const now = opts.now ?? Date.now;
  const initial = Math.max(1, Math.min(opts.initial, opts.max));
  const states = new Map<string, State>();
  let skippedTotal = 0;

  function state(endpoint: string): State {
    let s = states.get(endpoint);
    if (!s) {
      s = { limit: initial, inFlight: 0, answers: 0, threshold: opts.max, lastSeen: now() };
      states.set(endpoint, s);
    }
    return s;
  }

  // An endpoint at `initial` with nothing in flight is what an unknown endpoint is: no need to keep it.
  function tidy(endpoint: string, s: State): void {
    if (s.inFlight > 0) return;
    const asNew = s.limit === initial && s.answers === 0 && s.threshold === opts.max;
    if (asNew || now() - s.lastSeen > FORGET_AFTER_MS) states.delete(endpoint);
  }

  return {
    limit: (endpoint) => states.get(endpoint)?.limit ?? initial,
    inFlight: (endpoint) => states.get(endpoint)?.inFlight ?? 0,
    room() {
      const endpoints: string[] = [];
      const free: number[] = [];
      const limited: string[] = [];
      for (const [endpoint, s] of states) {
        tidy(endpoint, s);
        if (!states.has(endpoint)) continue;
        endpoints.push(endpoint);
        free.push(Math.max(0, s.limit - s.inFlight));
        if (s.inFlight >= s.limit && s.limit < opts.max) limited.push(endpoint);
      }
      return { endpoints, free, defaultFree: initial, limited };
    },
    started(endpoint) {
      state(endpoint).inFlight += 1;
    },
    finished(endpoint, signal) {
      const s = state(endpoint);
      // Counted before this attempt leaves: was the endpoint using at least half its limit?
      const busy = s.inFlight * 2 >= s.limit;
      s.inFlight = Math.max(0, s.inFlight - 1);
      s.lastSeen = now();
      if (signal === 'dropped') {
        s.limit = Math.max(1, Math.floor(s.limit * BACKOFF_RATIO));
        s.threshold = s.limit;
        s.answers = 0;
      } else if (signal === 'answered' && busy && s.limit < opts.max) {
        // Slow start: one slot more per answer. Then one more per limit's worth of answers (per round trip).
        s.answers += 1;
        if (s.limit < s.threshold || s.answers >= s.limit) {
          s.limit += 1;
          s.answers = 0;
        }
      }
      tidy(endpoint, s);
    },
    skipped(endpoints) {
      skippedTotal += endpoints;
    },
    stats() {
      let atLimit = 0;
      let backedOff = 0;
      for (const s of states.values()) {
        if (s.inFlight >= s.limit) atLimit += 1;
        if (s.limit < initial) backedOff += 1;
      }
      return { atLimit, backedOff, skipped: skippedTotal };
    },
  };
}
