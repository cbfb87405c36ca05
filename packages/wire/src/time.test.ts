import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWireTime, parseWireTime } from './time.js';

const MX = 'America/Mexico_City';
const NY = 'America/New_York';
const utc = (iso: string) => new Date(`${iso}Z`);

describe('formatWireTime', () => {
  it('writes the wall clock of the zone as yyyy-MM-dd HH:mm:ss', () => {
    expect(formatWireTime(utc('2026-11-21T16:15:00'), MX)).toBe('2026-11-21 10:15:00');
    expect(formatWireTime(utc('2026-11-21T16:15:00'), 'UTC')).toBe('2026-11-21 16:15:00');
  });

  it('writes midnight as 00, never 24', () => {
    expect(formatWireTime(utc('2026-11-21T06:00:00'), MX)).toBe('2026-11-21 00:00:00');
    expect(formatWireTime(utc('2026-01-01T00:00:00'), 'UTC')).toBe('2026-01-01 00:00:00');
  });

  it('truncates milliseconds instead of rounding', () => {
    expect(formatWireTime(utc('2026-12-31T23:59:59.999'), 'UTC')).toBe('2026-12-31 23:59:59');
  });

  it('follows DST changes in New York', () => {
    expect(formatWireTime(utc('2026-03-08T06:59:59'), NY)).toBe('2026-03-08 01:59:59');
    expect(formatWireTime(utc('2026-03-08T07:00:00'), NY)).toBe('2026-03-08 03:00:00');
    expect(formatWireTime(utc('2026-11-01T05:30:00'), NY)).toBe('2026-11-01 01:30:00');
    expect(formatWireTime(utc('2026-11-01T06:30:00'), NY)).toBe('2026-11-01 01:30:00');
  });

  it('rejects an invalid date and an unknown zone', () => {
    expect(() => formatWireTime(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    expect(() => formatWireTime(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('parseWireTime', () => {
  it('reads a wall time in the platform zone as the right instant', () => {
    expect(parseWireTime('2026-11-21 10:15:00', MX)).toEqual(utc('2026-11-21T16:15:00'));
    expect(parseWireTime('2026-11-21 10:15:00', 'UTC')).toEqual(utc('2026-11-21T10:15:00'));
  });

  it('applies the historical offset where the zone had DST (Mexico City, summer 2021)', () => {
    expect(parseWireTime('2021-07-01 12:00:00', MX)).toEqual(utc('2021-07-01T17:00:00'));
  });

  it('uses the right offset on both sides of a New York DST change', () => {
    expect(parseWireTime('2026-03-08 01:59:59', NY)).toEqual(utc('2026-03-08T06:59:59'));
    expect(parseWireTime('2026-03-08 03:00:00', NY)).toEqual(utc('2026-03-08T07:00:00'));
    expect(parseWireTime('2026-11-01 00:59:59', NY)).toEqual(utc('2026-11-01T04:59:59'));
    expect(parseWireTime('2026-11-01 02:00:00', NY)).toEqual(utc('2026-11-01T07:00:00'));
  });

  it('returns null for a wall time skipped by spring-forward', () => {
    expect(parseWireTime('2026-03-08 02:30:00', NY)).toBeNull();
  });

  it('reads a repeated fall-back wall time as its first occurrence', () => {
    expect(parseWireTime('2026-11-01 01:30:00', NY)).toEqual(utc('2026-11-01T05:30:00'));
  });

  it.each([
    ['2026-02-30 00:00:00'],
    ['2026-02-29 00:00:00'],
    ['2026-04-31 00:00:00'],
    ['2026-13-01 00:00:00'],
    ['2026-00-10 00:00:00'],
    ['2026-01-00 00:00:00'],
    ['2026-01-01 24:00:00'],
    ['2026-01-01 23:60:00'],
    ['2026-01-01 23:59:60'],
    ['2026-1-01 00:00:00'],
    ['2026-01-01T00:00:00'],
    ['2026-01-01 00:00:00Z'],
    [' 2026-01-01 00:00:00'],
    ['2026-01-01 00:00:00.000'],
    ['2026-01-01'],
    [''],
  ])('rejects %j', (text) => {
    expect(parseWireTime(text, MX)).toBeNull();
  });

  it('accepts 29 February in a leap year', () => {
    expect(parseWireTime('2028-02-29 12:00:00', 'UTC')).toEqual(utc('2028-02-29T12:00:00'));
  });

  it('returns null for a value that is not a string', () => {
    expect(parseWireTime(20261121 as unknown as string, 'UTC')).toBeNull();
  });
});

describe('wire time round trip', () => {
  // Every 7 minutes across both 2026 New York DST weekends, plus the same span in UTC and Mexico City.
  const instants = (fromIso: string, hours: number) =>
    Array.from({ length: (hours * 60) / 7 }, (_, i) => utc(fromIso).getTime() + i * 7 * 60_000);
  const spans = [...instants('2026-03-07T00:00:00', 72), ...instants('2026-10-31T00:00:00', 72)];

  it.each([NY, 'UTC', MX])(
    'parse(format(t)) gives t back in %s, except the repeated fall-back hour',
    (zone) => {
      for (const t of spans) {
        const text = formatWireTime(new Date(t), zone);
        const back = parseWireTime(text, zone);
        expect(back, text).not.toBeNull();
        const inRepeatedHour =
          zone === NY &&
          t >= utc('2026-11-01T06:00:00').getTime() &&
          t < utc('2026-11-01T07:00:00').getTime();
        expect(back!.getTime(), text).toBe(inRepeatedHour ? t - 3_600_000 : t);
      }
    },
  );
});

describe('remembered zone offsets', () => {
  // The wall clock straight from ICU, the way formatWireTime worked before it remembered offsets.
  function icuWallTime(ms: number, zone: string): string {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(ms);
    const part = (type: string) => parts.find((p) => p.type === type)!.value;
    const hour = String(Number(part('hour')) % 24).padStart(2, '0');
    return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')} ${hour}:${part('minute')}:${part('second')}`;
  }

  // Zones with DST, half-hour and 45-minute offsets, a 30-minute DST shift, and Mexico's 2022 end of DST.
  const zones = [
    MX,
    NY,
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'America/Tijuana',
    'UTC',
  ];

  it('formats exactly as ICU at random instants from 1900 to 2100, in any order', () => {
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), fc.constantFrom(...zones), (ms, zone) => {
        expect(formatWireTime(new Date(ms), zone)).toBe(icuWallTime(ms, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it('formats exactly as ICU every second around offset changes, approached from either side', () => {
    const changes = [
      [NY, '2026-03-08T07:00:00'],
      [NY, '2026-11-01T06:00:00'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00'],
      [MX, '2022-10-30T07:00:00'],
      // Changes off the quarter hour: India's 1906 move from local mean time, Liberia's 1972 move to UTC.
      ['Asia/Kolkata', '1905-12-31T18:38:50'],
      ['Africa/Monrovia', '1972-01-07T00:44:30'],
    ] as const;
    for (const [zone, iso] of changes) {
      const at = utc(iso).getTime();
      // Forwards, then backwards, so a span remembered on one side is asked about the other.
      for (const step of [1000, -1000]) {
        for (let i = -900; i <= 900; i++) {
          const ms = at + (step > 0 ? i : -i) * 1000;
          expect(formatWireTime(new Date(ms), zone)).toBe(icuWallTime(ms, zone));
        }
      }
    }
  });
});
