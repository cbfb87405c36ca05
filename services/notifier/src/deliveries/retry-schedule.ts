const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/**
 * Parses NOTIFY_RETRY_SCHEDULE, e.g. `15s,15s,30s,1m,3h`, into the waits before each retry in ms.
 * An empty string means no retries. Throws naming the first entry it cannot read.
 */
export function parseRetrySchedule(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed.split(',').map((entry) => {
    const match = DURATION.exec(entry.trim());
    if (!match) throw new Error(`"${entry.trim()}" is not a duration such as 500ms, 15s, 1m, 3h or 1d`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  });
}

/**
 * What follows a failed attempt: the wait before the next one, or undefined when the schedule is used up.
 * `attemptsInRound` counts the attempts made since the delivery was (re)scheduled, the failed one included.
 */
export function nextRetryDelay(schedule: readonly number[], attemptsInRound: number): number | undefined {
  return schedule[attemptsInRound - 1];
}
