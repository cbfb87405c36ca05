import { formatWireTime } from '@agentpay/wire';
import { STATEMENT_TIME_ZONE } from '../statements/clave-rastreo.js';

/** The SPEI operation day of `at` as STP writes it, `yyyyMMdd`: the Mexico City wall-clock day. */
export function operationDay(at: Date): string {
  return formatWireTime(at, STATEMENT_TIME_ZONE).slice(0, 10).replaceAll('-', '');
}

/** Whether `text` is a real calendar day written `yyyyMMdd`. */
export function isOperationDay(text: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10).replaceAll('-', '') === text;
}
