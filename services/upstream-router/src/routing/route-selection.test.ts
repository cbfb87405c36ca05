import { describe, expect, it } from 'vitest';
import { attemptOrder } from './route-selection.js';

/** A small deterministic PRNG (mulberry32), so the weighted draws are reproducible. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const route = (id: string, priority: number, weight: number) => ({ id, priority, weight });

describe('attemptOrder', () => {
  it('tries every route of a lower priority before any route of a higher one', () => {
    const routes = [route('c', 30, 100), route('a', 10, 1), route('b', 20, 1000), route('a2', 10, 5)];
    for (let seed = 1; seed <= 50; seed++) {
      const order = attemptOrder(routes, seeded(seed)).map((r) => r.priority);
      expect(order).toEqual([10, 10, 20, 30]);
    }
  });

  it('leaves out routes of weight 0', () => {
    expect(attemptOrder([route('a', 1, 0), route('b', 2, 10)]).map((r) => r.id)).toEqual(['b']);
    expect(attemptOrder([route('a', 1, 0)])).toEqual([]);
  });

  it('puts every route of a priority group in the order, once', () => {
    const routes = [route('a', 1, 1), route('b', 1, 2), route('c', 1, 3)];
    const order = attemptOrder(routes, seeded(7)).map((r) => r.id);
    expect([...order].sort()).toEqual(['a', 'b', 'c']);
  });

  it('picks first among equal priority in proportion to weight', () => {
    const routes = [route('a', 1, 10), route('b', 1, 30), route('c', 1, 60)];
    const random = seeded(42);
    const firsts = { a: 0, b: 0, c: 0 };
    const draws = 20_000;
    for (let i = 0; i < draws; i++) firsts[attemptOrder(routes, random)[0]!.id as 'a' | 'b' | 'c']++;
    expect(firsts.a / draws).toBeCloseTo(0.1, 1);
    expect(firsts.b / draws).toBeCloseTo(0.3, 1);
    expect(firsts.c / draws).toBeCloseTo(0.6, 1);
  });

  it('never falls off the end when random() is just below 1', () => {
    const order = attemptOrder([route('a', 1, 1), route('b', 1, 1)], () => 0.9999999999999999);
    expect(order).toHaveLength(2);
  });
});
