import { describe, expect, it } from 'vitest';
import { createSettlementCalendar, defaultHolidays, parseHolidays } from './calendar.js';

const TZ = 'America/Mexico_City';
const calendar = createSettlementCalendar({ holidays: defaultHolidays(), timeZone: TZ });
/** Mexico City is UTC-6 all year since 2022: local midnight is 06:00Z. */
const mx = (local: string) => new Date(`${local}-06:00`);

describe('settlement calendar (America/Mexico_City)', () => {
  it('REALTIME is due at the pay time itself', () => {
    const paid = mx('2026-11-20T15:00:00');
    expect(calendar.dueAt(paid, 'REALTIME')).toEqual(paid);
  });

  it('D+1 paid on a Tuesday is due at 00:00 Wednesday', () => {
    expect(calendar.dueAt(mx('2026-11-24T10:00:00'), 'D+1')).toEqual(mx('2026-11-25T00:00:00'));
  });

  it('D+1 paid on a Friday skips the weekend to Monday 00:00', () => {
    expect(calendar.dueAt(mx('2026-11-27T23:59:59'), 'D+1')).toEqual(mx('2026-11-30T00:00:00'));
  });

  it('D+1 paid on a Saturday or Sunday is due on Monday (the next business day after D)', () => {
    expect(calendar.dueAt(mx('2026-11-28T12:00:00'), 'D+1')).toEqual(mx('2026-11-30T00:00:00'));
    expect(calendar.dueAt(mx('2026-11-29T12:00:00'), 'D+1')).toEqual(mx('2026-11-30T00:00:00'));
  });

  it('the pay day is the Mexico City wall-clock day, not the UTC day', () => {
    // 2026-11-25 02:00Z is still Tuesday the 24th in Mexico City.
    expect(calendar.dueAt(new Date('2026-11-25T02:00:00Z'), 'D+1')).toEqual(mx('2026-11-25T00:00:00'));
  });

  it('skips a bank holiday: D+1 on Friday 13 Nov 2026 passes Monday 16 Nov (third Monday) to Tuesday', () => {
    expect(calendar.isBusinessDay('2026-11-16')).toBe(false);
    expect(calendar.dueAt(mx('2026-11-13T09:00:00'), 'D+1')).toEqual(mx('2026-11-17T00:00:00'));
  });

  it('D+2 and D+3 count business days across a weekend and a holiday', () => {
    // Thu 10 Dec 2026; Fri 11 business, Sat/Sun no, Mon 14 business, Tue 15 business.
    expect(calendar.dueAt(mx('2026-12-10T09:00:00'), 'D+2')).toEqual(mx('2026-12-14T00:00:00'));
    expect(calendar.dueAt(mx('2026-12-10T09:00:00'), 'D+3')).toEqual(mx('2026-12-15T00:00:00'));
    // Thu 24 Dec 2026: Fri 25 holiday, weekend, Mon 28, Tue 29.
    expect(calendar.dueAt(mx('2026-12-24T09:00:00'), 'D+2')).toEqual(mx('2026-12-29T00:00:00'));
  });

  it('SETTLEMENT_HOLIDAYS replaces the bundled list', () => {
    const custom = createSettlementCalendar({
      holidays: parseHolidays('2026-11-25, 2026-11-26'),
      timeZone: TZ,
    });
    expect(custom.isBusinessDay('2026-11-16')).toBe(true);
    expect(custom.dueAt(mx('2026-11-24T10:00:00'), 'D+1')).toEqual(mx('2026-11-27T00:00:00'));
  });

  it('refuses a malformed holiday', () => {
    expect(() => parseHolidays('2026-13-45')).toThrow(/yyyy-MM-dd/);
    expect(() => parseHolidays('25/12/2026')).toThrow(/yyyy-MM-dd/);
  });
});
