import { AppError, MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';

// Callers are platform services, so a bad argument is a platform bug; still, refuse it by name
// rather than send nonsense upstream.

export function requireText(value: string, field: string): string {
  if (typeof value !== 'string' || value === '') throw new AppError('INVALID_PARAMETER', field);
  return value;
}

/** An int64 centavo amount (a decimal string on the wire) as a number, 1..MAX_AMOUNT_CENTAVOS. */
export function requireCentavos(value: string | number, field: string): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_AMOUNT_CENTAVOS)
    throw new AppError('INVALID_PARAMETER', field);
  return n;
}

/** An RFC 3339 instant. */
export function requireInstant(value: string, field: string): Date {
  const date = typeof value === 'string' && value !== '' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new AppError('INVALID_PARAMETER', field);
  return date;
}

/** An optional instant as the wire's RFC 3339 text, '' when unset. */
export function instantText(date: Date | undefined): string {
  return date ? date.toISOString() : '';
}
