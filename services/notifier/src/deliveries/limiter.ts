/** A counting semaphore: the function it returns runs `fn` once one of `limit` permits is free, in arrival order. */
export function limiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await fn();
    } finally {
      // The permit passes straight to the next in line, so `active` never dips while others wait.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
