const formatters = new Map<string, Intl.DateTimeFormat>();

/** `date` as the API's `yyyy-MM-dd HH:mm:ss`, on the wall clock of the IANA time zone `timeZone`. */
export function formatApiTime(date: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of formatter.formatToParts(date)) part[type] = value;
  // Some ICU builds print midnight as 24 even with h23.
  const hour = String(Number(part['hour']) % 24).padStart(2, '0');
  const year = (part['year'] ?? '').padStart(4, '0');
  return `${year}-${part['month']}-${part['day']} ${hour}:${part['minute']}:${part['second']}`;
}
