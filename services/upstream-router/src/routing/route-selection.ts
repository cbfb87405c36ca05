/** What selection looks at on a route. */
export interface Weighted {
  priority: number;
  weight: number;
}

/**
 * The order in which to try `routes`: lower priority first; inside one priority a weighted random
 * order, so the first pick follows the weights and failover still reaches every route of the group.
 * A route of weight 0 takes no traffic (an operator draining it) and is left out.
 */
export function attemptOrder<R extends Weighted>(
  routes: readonly R[],
  random: () => number = Math.random,
): R[] {
  const byPriority = new Map<number, R[]>();
  for (const route of routes) {
    if (route.weight <= 0) continue;
    const group = byPriority.get(route.priority);
    if (group) group.push(route);
    else byPriority.set(route.priority, [route]);
  }
  const ordered: R[] = [];
  for (const priority of [...byPriority.keys()].sort((a, b) => a - b))
    ordered.push(...weightedShuffle(byPriority.get(priority)!, random));
  return ordered;
}

/** Draws without replacement, each draw proportional to weight. */
function weightedShuffle<R extends Weighted>(group: readonly R[], random: () => number): R[] {
  const left = [...group];
  const out: R[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, r) => sum + r.weight, 0);
    let ticket = random() * total;
    let index = left.findIndex((r) => {
      ticket -= r.weight;
      return ticket < 0;
    });
    // random() is < 1, but float sums can leave the last ticket a hair short.
    if (index < 0) index = left.length - 1;
    out.push(left[index]!);
    left.splice(index, 1);
  }
  return out;
}
