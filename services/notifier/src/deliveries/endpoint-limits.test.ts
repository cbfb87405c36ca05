import { describe, expect, it } from 'vitest';
import { createEndpointLimits, type EndpointLimits, type EndpointSignal } from './endpoint-limits.js';

const A = '127.0.0.1:8001';
const B = '127.0.0.1:8002';

/** Fills the endpoint's free slots as a claim would, then finishes every one with `signal`. */
function roundTrip(limits: EndpointLimits, endpoint: string, signal: EndpointSignal): number {
  const n = Math.max(0, limits.limit(endpoint) - limits.inFlight(endpoint));
  for (let i = 0; i < n; i++) limits.started(endpoint);
  for (let i = 0; i < n; i++) limits.finished(endpoint, signal);
  return n;
}

describe('endpoint limits (AIMD)', () => {
  it('slow-starts (one more per answer) until the first drop, then grows one per limit of answers', () => {
    const limits = createEndpointLimits({ initial: 4, max: 64 });
    for (let i = 0; i < 4; i++) limits.started(A);
    for (let i = 0; i < 20; i++) {
      limits.finished(A, 'answered');
      while (limits.inFlight(A) < limits.limit(A)) limits.started(A);
    }
    expect(limits.limit(A)).toBe(24);
    limits.finished(A, 'dropped');
    expect(limits.limit(A)).toBe(12);
    while (limits.inFlight(A) > 12) limits.finished(A, 'none');
    const before = limits.limit(A);
    for (let i = 0; i < 12; i++) {
      limits.finished(A, 'answered');
      limits.started(A);
    }
    expect(limits.limit(A)).toBe(before + 1);
  });

  it('after a drop, grows by one per limit of answers while the endpoint uses its limit, up to the ceiling', () => {
    const limits = createEndpointLimits({ initial: 6, max: 7 });
    limits.started(A);
    limits.finished(A, 'dropped');
    expect(limits.limit(A)).toBe(3);
    // Kept full: every answer frees a slot that the next claim fills at once.
    for (let i = 0; i < 3; i++) limits.started(A);
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      limits.finished(A, 'answered');
      while (limits.inFlight(A) < limits.limit(A)) limits.started(A);
      seen.push(limits.limit(A));
    }
    // 3 answers at 3, 4 at 4, 5 at 5, 6 at 6, then the ceiling.
    expect(seen.slice(0, 19)).toEqual([3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7]);
    expect(seen.at(-1)).toBe(7);
  });

  it('does not grow for an endpoint that uses less than half its limit', () => {
    const limits = createEndpointLimits({ initial: 8, max: 64 });
    for (let i = 0; i < 100; i++) {
      limits.started(A);
      limits.started(A);
      limits.finished(A, 'answered');
      limits.finished(A, 'answered');
    }
    expect(limits.limit(A)).toBe(8);
  });

  it('halves on every unanswered attempt and floors at 1, while other endpoints keep theirs', () => {
    const now = 0;
    const limits = createEndpointLimits({ initial: 16, max: 64, now: () => now });
    for (let i = 0; i < 16; i++) limits.started(A);
    limits.started(B);
    expect(limits.room()).toEqual({ endpoints: [A, B], free: [0, 15], defaultFree: 16, limited: [A] });

    // The whole wave times out: 16 → 8 → 4 → 2 → 1, then stays at 1.
    const seen: number[] = [];
    for (let i = 0; i < 16; i++) {
      limits.finished(A, 'dropped');
      seen.push(limits.limit(A));
    }
    expect(seen.slice(0, 5)).toEqual([8, 4, 2, 1, 1]);
    expect(seen.at(-1)).toBe(1);
    expect(limits.limit(B)).toBe(16);
    expect(limits.stats()).toMatchObject({ backedOff: 1 });

    // At its limit of one probe, the hanging endpoint has no room; a probe that also times out keeps it at 1.
    limits.started(A);
    expect(limits.room().free[limits.room().endpoints.indexOf(A)]).toBe(0);
    expect(limits.stats()).toMatchObject({ atLimit: 1 });
    limits.finished(A, 'dropped');
    expect(limits.limit(A)).toBe(1);
  });

  it('recovers once the endpoint answers again, one slot more per round trip', () => {
    const limits = createEndpointLimits({ initial: 4, max: 8 });
    for (let i = 0; i < 4; i++) limits.started(A);
    for (let i = 0; i < 4; i++) limits.finished(A, 'dropped');
    expect(limits.limit(A)).toBe(1);

    const sizes: number[] = [];
    while (limits.limit(A) < 8 && sizes.length < 100) sizes.push(roundTrip(limits, A, 'answered'));
    expect(limits.limit(A)).toBe(8);
    // Never more than one slot more per round trip, as the endpoint proves it keeps up.
    expect(sizes[0]).toBe(1);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]! - sizes[i - 1]!).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]! - sizes[i - 1]!).toBeLessThanOrEqual(1);
    expect(limits.stats()).toMatchObject({ backedOff: 0 });
  });

  it('forgets a backed-off endpoint idle for ten minutes (it starts again at the initial limit)', () => {
    let now = 0;
    const limits = createEndpointLimits({ initial: 4, max: 8, now: () => now });
    limits.started(A);
    limits.finished(A, 'dropped');
    expect(limits.limit(A)).toBe(2);
    now += 9 * 60_000;
    expect(limits.room().endpoints).toEqual([A]);
    now += 2 * 60_000;
    expect(limits.room().endpoints).toEqual([]);
    expect(limits.limit(A)).toBe(4);
  });

  it('takes no signal from an attempt whose URL was unusable, and counts skips', () => {
    const limits = createEndpointLimits({ initial: 2, max: 8 });
    limits.started(A);
    limits.started(A);
    limits.finished(A, 'none');
    limits.finished(A, 'none');
    expect(limits.limit(A)).toBe(2);
    expect(limits.inFlight(A)).toBe(0);
    limits.skipped(3);
    limits.skipped(1);
    expect(limits.stats().skipped).toBe(4);
  });
});
