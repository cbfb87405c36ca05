import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets in seconds, from sub-millisecond to the 15 s callback timeout. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30,
];

/**
 * A service's metrics registry, with Node process metrics and `service` on every series. The event-loop
 * delay histogram samples every 100 ms, not prom-client's default 10 ms: that timer woke every service
 * about 200 times a second while idle, half the stack's idle CPU (docs/deploy.md, "Metrics and traces").
 */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  return registry;
}

/** Request counters and latencies for an RPC-ish boundary (HTTP route, gRPC method, upstream call). */
export function requestMetrics(registry: Registry, prefix: string, labelNames: readonly string[]) {
  const total = new Counter({
    name: `${prefix}_requests_total`,
    help: `Requests handled at ${prefix.replaceAll('_', ' ')}, by outcome`,
    labelNames: [...labelNames, 'code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${prefix}_request_duration_seconds`,
    help: `Latency of ${prefix.replaceAll('_', ' ')} requests`,
    labelNames: [...labelNames],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    /** Records one request: its labels, its outcome code and its duration since `startedAt` (performance.now()). */
    observe(labels: Record<string, string>, code: string | number, startedAt: number): void {
      total.inc({ ...labels, code: String(code) });
      duration.observe(labels, (performance.now() - startedAt) / 1000);
    },
  };
}

export type RequestMetrics = ReturnType<typeof requestMetrics>;
