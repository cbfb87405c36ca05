import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createRegistry, requestMetrics } from './metrics.js';
import { carrierOf, contextFrom, currentTraceparent, inSpan, installTracing, SpanKind } from './tracing.js';

const exporter = new InMemorySpanExporter();
installTracing({ service: 'test', exporter });

describe('tracing', () => {
  it('continues a trace from a traceparent: the child span keeps the trace id and names its parent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = contextFrom({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    let inner = '';
    await inSpan('handle', { service: 'gateway', kind: SpanKind.SERVER, parent }, async () => {
      inner = currentTraceparent();
    });
    expect(inner).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const span = exporter.getFinishedSpans().find((s) => s.name === 'handle');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.attributes['agentpay.service']).toBe('gateway');
  });

  it('starts a new trace with real ids when there is no parent, and propagates it to nested spans', async () => {
    let outerTrace = '';
    let carrier: Record<string, string> = {};
    await inSpan('outer', { service: 'payments' }, async (span) => {
      outerTrace = span.spanContext().traceId;
      await inSpan('inner', { service: 'payments', kind: SpanKind.CLIENT }, async () => {
        carrier = carrierOf();
      });
    });
    expect(outerTrace).toMatch(/^[0-9a-f]{32}$/);
    expect(outerTrace).not.toBe('0'.repeat(32));
    expect(carrier['traceparent']).toContain(outerTrace);
  });

  it('ignores a malformed traceparent', () => {
    const ctx = contextFrom({ traceparent: 'garbage' });
    expect(carrierOf(ctx)).toEqual({});
  });

  it('marks a span failed when its work throws', async () => {
    await expect(
      inSpan('boom', { service: 'x' }, async () => {
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    const span = exporter.getFinishedSpans().find((s) => s.name === 'boom');
    expect(span?.status.code).toBe(2);
  });
});

describe('metrics', () => {
  it('exposes request counts by outcome and latency histograms with the service label', async () => {
    const registry = createRegistry('gateway');
    const http = requestMetrics(registry, 'http_server', ['route']);
    http.observe({ route: '/gateway/pay' }, 0, performance.now() - 5);
    http.observe({ route: '/gateway/pay' }, 20052, performance.now());
    const text = await registry.metrics();
    expect(text).toContain('http_server_requests_total{route="/gateway/pay",code="0",service="gateway"} 1');
    expect(text).toContain(
      'http_server_requests_total{route="/gateway/pay",code="20052",service="gateway"} 1',
    );
    expect(text).toContain(
      `http_server_request_duration_seconds_count{service="gateway",route="/gateway/pay"} 2`,
    );
    expect(text).toContain('process_resident_memory_bytes');
  });
});
