import { type Context, contextFrom, type Span, SpanKind, startSpan } from '@agentpay/telemetry';

export interface TraceContext {
  /** The envelope's traceId: the W3C trace id of the request's trace. */
  traceId: string;
  /** The traceparent this hop passes on to the services. */
  traceparent: string;
  span: Span;
  context: Context;
}

/**
 * Opens the request's SERVER span, continuing the caller's W3C trace when a valid `traceparent` header is
 * given, else starting one, so a merchant's traceId finds the request's spans and logs in every service.
 */
export function traceFrom(
  headers: Record<string, string | string[] | undefined>,
  route: string,
): TraceContext {
  const { span, context } = startSpan(`POST ${route}`, {
    service: 'gateway',
    kind: SpanKind.SERVER,
    parent: contextFrom({ traceparent: headers['traceparent'], tracestate: headers['tracestate'] }),
    attributes: { 'http.route': route },
  });
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { traceId, traceparent: `00-${traceId}-${spanId}-0${traceFlags.toString(16)}`, span, context };
}
