import type { Lang } from './i18n';

// The one place amounts, dates and counts become text. The API gives amounts as decimal pesos (a string
// or a number with at most two decimals); they are formatted, never computed (STYLE.md "Web apps").

const TIME_ZONE = 'America/Mexico_City';

/** `1234.5` or `"1234.50"` as `$1,234.50` (MXN), exactly: Intl formats a decimal string without a float. */
export function formatMoney(amount: string | number, lang: Lang): string {
  const value = typeof amount === 'number' ? amount : (amount as Intl.StringNumericLiteral);
  return new Intl.NumberFormat(lang, { style: 'currency', currency: 'MXN' }).format(value);
}

/** An ISO instant in Mexico City time, to the minute. */
export function formatDateTime(iso: string | undefined | null, lang: Lang): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: TIME_ZONE,
  }).format(date);
}

export function formatCount(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang).format(value);
}

/** Basis points as a percent: 60 → 0.60 %. */
export function formatBps(bps: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 2 }).format(bps / 10_000);
}

/** Integer centavos (a fee's fixed part) as money, through the string, never a float. */
export function formatCentavos(centavos: number, lang: Lang): string {
  const digits = String(Math.abs(Math.trunc(centavos))).padStart(3, '0');
  const decimal = `${centavos < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
  return formatMoney(decimal, lang);
}

/**
 * A person's decimal as an integer of its smallest unit, through the string, never a float:
 * `parseDecimal('3.5', 2)` → 350 (pesos to centavos), `parseDecimal('0.60', 2)` → 60 (percent to basis
 * points). Blank, malformed or more decimals than `places`: null.
 */
export function parseDecimal(text: string, places: number): number | null {
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > places) return null;
  return Number(`${match[1]}${fraction.padEnd(places, '0')}`);
}
