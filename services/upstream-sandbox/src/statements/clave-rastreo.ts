import { randomBytes } from 'node:crypto';
import { formatWireTime } from '@agentpay/wire';

/** Statements are per wall-clock day in Mexico City (CONTRACT.md section 14), whatever the host's zone. */
export const STATEMENT_TIME_ZONE = 'America/Mexico_City';

/** What a movement is, as the first letter of its tracking key. */
const KIND_LETTER = { deposit: 'D', payout: 'P', payout_return: 'R' } as const;

export type MovementKind = keyof typeof KIND_LETTER;

/** The Mexico City wall-clock day of `at`, `yyyy-MM-dd`. */
export function statementDay(at: Date): string {
  return formatWireTime(at, STATEMENT_TIME_ZONE).slice(0, 10);
}

/**
 * A SPEI tracking key (`claveRastreo`) for a movement made at `at`: `SBX`, the kind's letter, the
 * Mexico City day as `yyyyMMdd` and 16 random hex digits, 28 characters in all (SPEI allows 30). The
 * kind's letter keeps the three kinds apart; within one, the columns' unique indexes refuse a repeat.
 */
export function newClaveRastreo(kind: MovementKind, at: Date): string {
  return `SBX${KIND_LETTER[kind]}${statementDay(at).replaceAll('-', '')}${randomBytes(8).toString('hex').toUpperCase()}`;
}
