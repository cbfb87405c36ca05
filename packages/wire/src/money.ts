/** Largest amount the contract accepts, 99,999,999.99, in centavos. */
export const MAX_AMOUNT_CENTAVOS = 9_999_999_999;

/** A fee rate: percent part in basis points (1 bp = 0.01 %) plus a fixed part in centavos. */
export interface FeeRate {
  percentBps: number;
  fixedCentavos: number;
}

/** Outcome of parseAmount; `reason` completes "invalid parameter: amount …". */
export type AmountResult = { ok: true; centavos: number } | { ok: false; reason: string };

const MAX_AMOUNT = MAX_AMOUNT_CENTAVOS / 100;
const AMOUNT_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Validates a wire `amount` (JSON number, 0.01..99,999,999.99, ≤ 2 decimals) and converts it to centavos. */
export function parseAmount(value: unknown): AmountResult {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, reason: 'must be a number' };
  if (value < 0.01) return { ok: false, reason: 'must be at least 0.01' };
  if (value > MAX_AMOUNT) return { ok: false, reason: `must be at most ${MAX_AMOUNT}` };
  // Judged on the shortest round-trip text, so 0.30000000000000004 is refused rather than rounded,
  // and centavos come from decimal digits, never from a float product.
  const m = AMOUNT_TEXT.exec(String(value));
  if (!m) return { ok: false, reason: 'must have at most 2 decimal places' };
  return { ok: true, centavos: Number(m[1] + (m[2] ?? '').padEnd(2, '0')) };
}

/** The wire number for an integer centavo amount (10050 → 100.5). */
export function centavosToAmount(centavos: number): number {
  if (!Number.isSafeInteger(centavos))
    throw new RangeError(`centavosToAmount: ${centavos} is not an integer`);
  // IEEE division is correctly rounded, so this is the double nearest the exact decimal.
  return centavos / 100;
}

/** Fee in centavos for `amountCentavos` at `rate`: percent rounded half up, plus fixed, capped at the amount. */
export function feeFor(amountCentavos: number, rate: FeeRate): number {
  const { percentBps, fixedCentavos } = rate;
  if (!isCount(amountCentavos))
    throw new RangeError(`feeFor: amount ${amountCentavos} is not a non-negative integer`);
  if (!isCount(percentBps) || percentBps > 10_000)
    throw new RangeError(`feeFor: percentBps ${percentBps} not in 0..10000`);
  if (!isCount(fixedCentavos))
    throw new RangeError(`feeFor: fixedCentavos ${fixedCentavos} is not a non-negative integer`);
  const scaled = amountCentavos * percentBps + 5_000;
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`feeFor: amount ${amountCentavos} is too large`);
  // Subtracting the remainder keeps the division exact; a float quotient could round up to the next integer.
  const percent = (scaled - (scaled % 10_000)) / 10_000;
  return Math.min(amountCentavos, percent + fixedCentavos);
}

function isCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}
