type WallFields = [year: number, month: number, day: number, hour: number, minute: number, second: number];

const WIRE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Building a DateTimeFormat costs far more than using one; zones are few and fixed per process.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `date` as `yyyy-MM-dd HH:mm:ss` on the wall clock of the IANA `timeZone` (docs/merchant-api.md "Requests"). */
export function formatWireTime(date: Date, timeZone: string): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError('formatWireTime: invalid date');
  // The wall clock is the instant moved by the zone's offset, read in UTC.
  const wall = new Date(ms + offsetAt(ms, timeZone));
  const y = wall.getUTCFullYear();
  if (y < 1 || y > 9999) {
    const [fy, fmo, fd, fh, fmi, fs] = wallFields(ms, timeZone);
    return `${pad(fy, 4)}-${pad(fmo, 2)}-${pad(fd, 2)} ${pad(fh, 2)}:${pad(fmi, 2)}:${pad(fs, 2)}`;
  }
  return `${pad(y, 4)}-${pad(wall.getUTCMonth() + 1, 2)}-${pad(wall.getUTCDate(), 2)} ${pad(wall.getUTCHours(), 2)}:${pad(wall.getUTCMinutes(), 2)}:${pad(wall.getUTCSeconds(), 2)}`;
}

/** The instant a strict `yyyy-MM-dd HH:mm:ss` wall time in `timeZone` denotes; null if malformed or nonexistent. */
export function parseWireTime(text: string, timeZone: string): Date | null {
  const m = typeof text === 'string' ? WIRE_TIME.exec(text) : null;
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const h = Number(m[4]);
  const mi = Number(m[5]);
  const s = Number(m[6]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const wall = utcMs(y, mo, d, h, mi, s);
  // The offset at `wall` read as UTC is only a guess; one more lookup settles DST edges, and a
  // wall time that still does not round-trip falls in a spring-forward gap and never happened.
  const guess = offsetAt(wall, timeZone);
  const first = wall - guess;
  const offset = offsetAt(first, timeZone);
  if (offset === guess) return new Date(first);
  const second = wall - offset;
  return offsetAt(second, timeZone) === offset ? new Date(second) : null;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
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
  return formatter;
}

function wallFields(ms: number, timeZone: string): WallFields {
  const fields: WallFields = [0, 0, 0, 0, 0, 0];
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    switch (part.type) {
      case 'year':
        fields[0] = Number(part.value);
        break;
      case 'month':
        fields[1] = Number(part.value);
        break;
      case 'day':
        fields[2] = Number(part.value);
        break;
      case 'hour':
        // Some ICU builds still print midnight as 24 despite h23.
        fields[3] = Number(part.value) % 24;
        break;
      case 'minute':
        fields[4] = Number(part.value);
        break;
      case 'second':
        fields[5] = Number(part.value);
        break;
    }
  }
  return fields;
}

/** Zone offset in ms at instant `ms` (wall clock minus UTC), asked of ICU. */
function exactOffsetAt(ms: number, timeZone: string): number {
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return utcMs(...wallFields(whole, timeZone)) - whole;
}

// ICU costs microseconds per lookup and every request needs a few (reqTime, resTime, expiredTime), but an
// offset changes only a few times a year. Offsets are remembered per zone and 15-minute span, for spans
// whose first and last second share one offset (no transition inside: tz transitions are months apart).
const SPAN_MS = 15 * 60 * 1000;
const MAX_SPANS = 256;
const spans = new Map<string, Map<number, number>>();

/** Zone offset in ms at instant `ms` (wall clock minus UTC). */
function offsetAt(ms: number, timeZone: string): number {
  const start = Math.floor(ms / SPAN_MS) * SPAN_MS;
  let known = spans.get(timeZone);
  const cached = known?.get(start);
  if (cached !== undefined) return cached;
  const offset = exactOffsetAt(ms, timeZone);
  if (
    exactOffsetAt(start, timeZone) === offset &&
    exactOffsetAt(start + SPAN_MS - 1000, timeZone) === offset
  ) {
    if (known === undefined) {
      known = new Map();
      spans.set(timeZone, known);
    }
    if (known.size >= MAX_SPANS) known.clear();
    known.set(start, offset);
  }
  return offset;
}

function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC reads years 0..99 as 1900..1999.
  return y >= 100 ? ms : new Date(ms).setUTCFullYear(y, mo - 1, d);
}

function daysInMonth(y: number, mo: number): number {
  if (mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) return 29;
  return DAYS_IN_MONTH[mo - 1] ?? 0;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
