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
