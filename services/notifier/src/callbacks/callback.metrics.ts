import {
  Counter,
  contextFrom,
  Gauge,
  Histogram,
  inSpan,
  LATENCY_BUCKETS,
  type Registry,
  SpanKind,
} from '@agentpay/telemetry';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EndpointLimits } from '../deliveries/endpoint-limits.js';
import type { CallbackOutcome, CallbackRequest } from './callback.client.js';

/** Short, bounded label for an attempt's outcome. */
function outcomeLabel(outcome: CallbackOutcome): string {
  if (outcome.ok) return 'delivered';
  if (outcome.httpStatus === null)
    return outcome.error?.includes('timed out') ? 'timeout' : 'network_or_refused';
  if (outcome.httpStatus >= 200 && outcome.httpStatus < 300) return 'not_acknowledged';
  return `http_${Math.floor(outcome.httpStatus / 100)}xx`;
}

/**
 * Wraps the callback sender so every attempt runs in a CLIENT span of the change's trace and is counted
 * by outcome with its latency; the queue depth is read from the deliveries table at scrape time.
 */
export function instrumentCallbacks(
  send: (request: CallbackRequest) => Promise<CallbackOutcome>,
  registry: Registry,
  db: Kysely<Database>,
): (request: CallbackRequest) => Promise<CallbackOutcome> {
  const attempts = new Counter({
    name: 'callback_attempts_total',
    help: 'Callback attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'callback_attempt_duration_seconds',
    help: 'Duration of one callback exchange',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'callback_queue_depth',
    help: 'Deliveries waiting to be sent, by state',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const { rows } = await sql<{ status: string; n: string }>`
        select case when lease_until > now() then 'in_flight' else 'waiting' end as status, count(*) as n
        from deliveries where status = 'pending' group by 1`.execute(db);
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  return (request) =>
    inSpan(
      'callback POST',
      {
        service: 'notifier',
        kind: SpanKind.CLIENT,
        parent: contextFrom({ traceparent: request.headers?.['traceparent'] }),
      },
      async (span) => {
        const outcome = await send(request);
        const label = outcomeLabel(outcome);
        attempts.inc({ outcome: label });
        latency.observe(outcome.latencyMs / 1000);
        span.setAttribute('agentpay.callback.outcome', label);
        if (outcome.httpStatus !== null) span.setAttribute('http.response.status_code', outcome.httpStatus);
        return outcome;
      },
    );
}

/**
 * The adaptive per-endpoint limits as aggregates: a limit and an in-flight count per endpoint would be a
 * label per merchant URL, too many series for Prometheus. Read from the limits at scrape time.
 */
export function instrumentEndpointLimits(limits: EndpointLimits, registry: Registry): void {
  new Gauge({
    name: 'callback_endpoints_at_limit',
    help: 'Endpoints with as many callbacks in flight from this replica as their adaptive limit allows',
    registers: [registry],
    collect() {
      this.set(limits.stats().atLimit);
    },
  });
  new Gauge({
    name: 'callback_endpoints_backed_off',
    help: 'Endpoints whose adaptive limit in this replica is below the initial limit (timeouts, refusals, slow answers)',
    registers: [registry],
    collect() {
      this.set(limits.stats().backedOff);
    },
  });
  new Counter({
    name: 'callback_limited_skips_total',
    help: 'Times a claim left an endpoint with due callbacks waiting because the endpoint was at an adaptive limit below NOTIFY_ENDPOINT_CONCURRENCY (once per endpoint per claim; the callbacks stay due)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(limits.stats().skipped);
    },
  });
}
