import { WIRE_TIME_PATTERN } from '../schemas.js';
import type { JsonSchema } from './request-schemas.js';

// The pieces the reply schemas are written with (reply-schemas.ts, reply-schemas.money-ops.ts).

export const WIRE_TIME: JsonSchema = {
  type: 'string',
  pattern: WIRE_TIME_PATTERN,
  description: '`yyyy-MM-dd HH:mm:ss` on the platform wall clock (America/Mexico_City by default).',
  examples: ['2026-11-21 10:15:00'],
};
export const MONEY = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  multipleOf: 0.01,
  description: `${description} Pesos (MXN), at most 2 decimals.`,
});
export const SIGNED_MONEY = (description: string): JsonSchema => ({
  type: 'number',
  multipleOf: 0.01,
  description: `${description} Signed pesos (MXN), at most 2 decimals.`,
});
export const NULLABLE_MONEY = (description: string): JsonSchema => ({
  ...MONEY(description),
  type: ['number', 'null'],
  description: `${description} Pesos; null: no limit.`,
});
export const text = (description: string): JsonSchema => ({ type: 'string', description });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const CEP_URL: JsonSchema = {
  type: 'string',
  format: 'uri',
  description:
    'Banxico’s CEP page of this payment as the channel gave it (STP does for liquidated orders); absent when the channel gives none. Open the `cep` facts on https://www.banxico.org.mx/cep/ otherwise.',
};

export const DATA_NOTE = 'Fields without a value are left out, never null.';
