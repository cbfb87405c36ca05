import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export { type Context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';

export interface TracingOptions {
  /** service.name of the spans this process makes. */
  service: string;
  /** OTLP/HTTP endpoint (e.g. http://otel-collector:4318/v1/traces); none means spans are made but not exported. */
  otlpEndpoint?: string | undefined;
  /** An exporter to use instead (tests pass an InMemorySpanExporter); exported synchronously. */
  exporter?: SpanExporter | undefined;
}

export interface Tracing {
  shutdown(): Promise<void>;
}

let installed: { provider: BasicTracerProvider } | undefined;

/**
 * Installs W3C trace context propagation and a tracer provider for this process. Spans always get real
 * ids (so the envelope's traceId is the trace id) even when nothing exports them. A process that runs
 * several services (tests) installs once; later calls keep the first provider.
 */
export function installTracing(options: TracingOptions): Tracing {
  if (!installed) {
    const processors: SpanProcessor[] = [];
    if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
    else if (options.otlpEndpoint)
      processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: options.otlpEndpoint })));
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.service }),
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors: processors,
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    installed = { provider };
  }
  const provider = installed.provider;
  return { shutdown: () => provider.forceFlush() };
}

/** The context a W3C `traceparent` (and `tracestate`) carries; the root context when absent or invalid. */
export function contextFrom(carrier: Record<string, string | string[] | undefined>): Context {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(carrier)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) flat[key.toLowerCase()] = first;
  }
  return propagation.extract(ROOT_CONTEXT, flat);
}

/** The `traceparent` (and `tracestate`) headers of `ctx` (default: the active context). */
export function carrierOf(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The traceparent of the active span, or '' when there is none. */
export function currentTraceparent(): string {
  return carrierOf()['traceparent'] ?? '';
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Parent context; default the active one. */
  parent?: Context;
  /** Service that makes the span, stamped as `agentpay.service` (several services may share a process in tests). */
  service: string;
}

/**
 * Runs `fn` inside a new span (active for everything `fn` awaits), ends it, and records an exception
 * and error status when `fn` throws.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer('agentpay');
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      attributes: { 'agentpay.service': options.service, ...options.attributes },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/** Starts a span the caller ends itself (e.g. an HTTP request finished in another hook). */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } {
  const parent = options.parent ?? context.active();
  const span = trace.getTracer('agentpay').startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      attributes: { 'agentpay.service': options.service, ...options.attributes },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` active. */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}
