// Text rules of STP's protocol: amounts as two-decimal pesos, names and concepts folded to the ASCII STP
// accepts, the Mexico City operation day and STP's epoch timestamps. Pure functions; money is integer
// centavos on our side and only becomes pesos text at the wire.

/** Integer centavos → pesos with exactly two decimals (`120` → `"1.20"`), by text, never by float. */
export function formatMonto(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0)
    throw new RangeError(`amount must be a non-negative safe integer of centavos, got ${centavos}`);
  const digits = String(centavos).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

// Pesos, at most two decimals. No sign, exponent, spaces or bare point: STP sends plain decimals.
const MONTO = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Pesos as STP sends them, a JSON number (`1.2`, `100`) or a string (`"1.20"`), → integer centavos, read
 * from the decimal text (`String(1.2)` is `"1.2"`, JavaScript's shortest round-trip form) so no float
 * arithmetic touches the amount. undefined when it is not a non-negative amount with at most two decimals.
 */
export function parseMonto(value: unknown): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return undefined;
  }
  const match = MONTO.exec(text);
  if (!match) return undefined;
  const pesos = match[1] ?? '';
  const decimals = (match[2] ?? '').padEnd(2, '0');
  const centavos = Number(`${pesos}${decimals}`);
  return Number.isSafeInteger(centavos) ? centavos : undefined;
}

// Letters without a decomposition that NFD would reduce to ASCII.
const LIGATURES: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
};

/**
 * Text for STP's name and concept fields: diacritics stripped (`José Muñoz` → `Jose Munoz`), then only
 * ASCII letters, digits, space and `. , -` kept; anything else becomes a space. STP refuses orders with
 * characters outside its set, and `|` (the cadena's separator) must never reach a signed field. Spaces
 * collapsed, trimmed, cut to `max` characters.
 */
export function foldAscii(text: string, max: number): string {
  const folded = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆœŒøØłŁđĐ]/g, (letter) => LIGATURES[letter] ?? ' ')
    .replace(/[^A-Za-z0-9.,\- ]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return folded.slice(0, Math.max(0, max)).trimEnd();
}

const MEXICO_CITY_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Mexico_City',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The Mexico City calendar day of `at` as `yyyyMMdd`, the form of STP's `fechaOperacion`. It is the wall
 * clock's day: SPEI's own operation day can run ahead of it (after hours, weekends), which is why a query
 * by claveRastreo may also be sent without a day.
 */
export function operationDay(at: Date): string {
  const parts = MEXICO_CITY_DAY.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}${part('month')}${part('day')}`;
}

/** STP's `tsLiquidacion`, epoch milliseconds as a number or a string of digits; undefined otherwise. */
export function parseTsLiquidacion(value: unknown): Date | undefined {
  let millis: number;
  if (typeof value === 'number') millis = value;
  else if (typeof value === 'string' && /^\d{1,16}$/.test(value)) millis = Number(value);
  else return undefined;
  // Zero or less is not a moment anything settled (an unset value), so no date rather than 1970.
  if (!Number.isSafeInteger(millis) || millis <= 0) return undefined;
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
