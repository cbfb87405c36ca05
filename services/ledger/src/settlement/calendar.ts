import type { SettleType } from '@agentpay/api';
import { formatWireTime, parseWireTime } from '@agentpay/wire';
import bundled from './mx-bank-holidays.json' with { type: 'json' };

/** docs/merchant-api.md "Balance and statement": how many business days after the pay day an order settles. */
export const SETTLE_DAYS: Readonly<Record<SettleType, number>> = {
  REALTIME: 0,
  'D+1': 1,
  'D+2': 2,
  'D+3': 3,
};

export interface SettlementCalendar {
  /** When an order paid at `payTime` becomes due: `payTime` itself for REALTIME. */
  dueAt(payTime: Date, settleType: SettleType): Date;
  /** Whether a `yyyy-MM-dd` day is a business day (Monday to Friday, not a holiday). */
  isBusinessDay(day: string): boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The bundled bank holidays (mx-bank-holidays.json, every year it lists). */
export function defaultHolidays(): string[] {
  return Object.values(bundled.holidays as Record<string, string[]>).flat();
}

/** Parses SETTLEMENT_HOLIDAYS (comma-separated yyyy-MM-dd); throws on a malformed day. */
export function parseHolidays(text: string): string[] {
  const days = text
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  for (const day of days) {
    if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
      throw new Error(`not a yyyy-MM-dd day: ${day}`);
    }
  }
  return days;
}

/** The day after `day`, both `yyyy-MM-dd` (calendar arithmetic, independent of any zone). */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/**
 * Business days in `timeZone` (America/Mexico_City): an order paid on wall-clock day D is due at 00:00 of
 * the N-th business day after D, whatever day of the week D itself was.
 */
export function createSettlementCalendar(opts: {
  holidays: readonly string[];
  timeZone: string;
}): SettlementCalendar {
  const holidays = new Set(opts.holidays);
  const isBusinessDay = (day: string) => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !holidays.has(day);
  };
  return {
    isBusinessDay,
    dueAt(payTime, settleType) {
      let remaining = SETTLE_DAYS[settleType];
      if (remaining === 0) return payTime;
      let day = formatWireTime(payTime, opts.timeZone).slice(0, 10);
      while (remaining > 0) {
        day = nextDay(day);
        if (isBusinessDay(day)) remaining -= 1;
      }
      const midnight = parseWireTime(`${day} 00:00:00`, opts.timeZone);
      // A zone whose clocks skip midnight (none of Mexico's since 2022) starts the day at the gap's end.
      return midnight ?? parseWireTime(`${day} 01:00:00`, opts.timeZone) ?? new Date(Date.parse(day));
    },
  };
}
