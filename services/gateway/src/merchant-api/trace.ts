import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface TraceContext {
  traceId: string;
  /** The traceparent this hop passes on: same trace, a span id of its own. */
  traceparent: string;
}

/**
 * Continues the caller's W3C trace when a valid `traceparent` header is given, else starts one. The
 * envelope's traceId is this trace id, so a merchant's traceId finds the request in every service's logs.
 */
export function traceFrom(header: string | string[] | undefined): TraceContext {
  const match = typeof header === 'string' ? TRACEPARENT.exec(header) : null;
  const traceId = match && !/^0+$/.test(match[1]!) ? match[1]! : randomBytes(16).toString('hex');
  const flags = match?.[3] ?? '01';
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` };
}
