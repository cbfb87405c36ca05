import { randomBytes } from 'node:crypto';

/** W3C traceparent, version 00, with non-zero trace and span ids. */
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Whether `value` is a well-formed W3C traceparent. */
export function isTraceparent(value: string | undefined | null): value is string {
  return typeof value === 'string' && TRACEPARENT.test(value);
}

/** `traceparent` when well-formed, else a new root trace (jobs, and notices that came without one). */
export function traceparentOr(traceparent: string | undefined | null): string {
  if (isTraceparent(traceparent)) return traceparent;
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/** The trace id of `traceparent` when well-formed, else a new one. */
export function traceIdOf(traceparent: string | undefined | null): string {
  return traceparentOr(traceparent?.trim()).slice(3, 35);
}
