import type { PayBody } from './types.js';

const AMOUNT_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/;

/** An API amount (pesos, at most 2 decimals) as integer centavos: 100.5 → 10050. Throws RangeError otherwise. */
export function amountToCentavos(amount: number): number {
  // Read from the number's shortest decimal text, so 0.1 + 0.2 is refused instead of rounded.
  const match = AMOUNT_TEXT.exec(String(amount));
  if (!match) throw new RangeError(`${amount} is not a non-negative amount with at most 2 decimals`);
  return Number(match[1] + (match[2] ?? '').padEnd(2, '0'));
}

/** Integer centavos as the API's amount number: 10050 → 100.5. Keep money in centavos; convert at the edge. */
export function centavosToAmount(centavos: number | bigint): number {
  const n = typeof centavos === 'bigint' ? Number(centavos) : centavos;
  if (!Number.isSafeInteger(n)) throw new RangeError(`${centavos} is not a whole number of centavos`);
  // One correctly rounded division gives the double nearest the decimal amount.
  return n / 100;
}

/** Parses the `payBody` JSON text of a pay reply; `cashierUrl`, when present, must be an http(s) URL. */
export function parsePayBody(payBody: string): PayBody {
  const parsed: unknown = JSON.parse(payBody);
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as PayBody).clabe !== 'string') {
    throw new TypeError('payBody is not a JSON object with a clabe');
  }
  const { cashierUrl } = parsed as { cashierUrl?: unknown };
  if (cashierUrl !== undefined && (typeof cashierUrl !== 'string' || !/^https?:\/\//.test(cashierUrl))) {
    throw new TypeError('payBody.cashierUrl is not an http(s) URL');
  }
  return parsed as PayBody;
}
