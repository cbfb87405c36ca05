// The load's choices come from a seeded generator, so a run can be replayed with its seed.

/** mulberry32: a small seeded PRNG, so a run's choices can be replayed with its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function pick<T>(rand: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [item, weight] of weighted) {
    r -= weight;
    if (r < 0) return item;
  }
  return weighted[weighted.length - 1]![0];
}

export const between = (rand: () => number, min: number, max: number) =>
  Math.floor(min + rand() * (max - min + 1));
