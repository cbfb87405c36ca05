import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;

/** `traceparent` when well-formed, else a new root trace (jobs and notices without one start their own). */
export function traceparentOr(traceparent: string | undefined): string {
  if (traceparent && TRACEPARENT.test(traceparent)) return traceparent;
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}
