// zod schemas of what STP sends: the answers to our calls and the two webhooks (CONTRACT.md section 16).
// STP sends numbers sometimes as JSON numbers, sometimes as strings, and nulls for empty fields; these
// schemas accept both forms, ignore keys they do not know, and hand back one shape: amounts as integer
// centavos, settlement times as Dates, codes as strings, ids as numbers, null as absent.

import { z } from 'zod';
import { parseMonto, parseTsLiquidacion } from './stp.text.js';

/** An integer sent as a number or as a string of digits. */
const integer = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,16}$/, 'an integer')
      .transform(Number),
  ])
  .pipe(z.number().int());

/** A code (institution, day, cause) sent as a number or a string; kept as its text. */
const code = z.union([z.string(), z.number().int().transform(String)]);

/** Pesos (`1.2`, `"1.20"`) → integer centavos. */
const centavos = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const parsed = parseMonto(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: 'not an amount with at most two decimals' });
    return z.NEVER;
  }
  return parsed;
});

/** Epoch milliseconds → Date; null, 0 or anything unreadable is no settlement time. */
const settledAt = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => parseTsLiquidacion(value));

/** Optional field that STP may send as null. */
const maybe = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value) => (value === null ? undefined : value));

const text = maybe(z.string());

/**
 * One order as `consultaOrden` (`respuesta`) and `conciliacion` (`datos`) describe it. `monto` is integer
 * centavos. `idEF` is STP's id of the order (the `resultado.id` of `registraOrden`), sent as `idEF` or `id`.
 */
export const stpOrder = z
  .object({
    idEF: maybe(integer),
    id: maybe(integer),
    claveRastreo: z.string(),
    estado: z.string(),
    monto: maybe(centavos),
    tsLiquidacion: settledAt,
    causaDevolucion: maybe(code),
    cuentaBeneficiario: text,
    cuentaOrdenante: text,
    nombreOrdenante: text,
    nombreBeneficiario: text,
    institucionOperante: maybe(code),
    institucionContraparte: maybe(code),
    fechaOperacion: maybe(code),
    /** Banxico's CEP page of a liquidated order, when STP gives one (CONTRACT section 21). */
    urlCEP: text,
  })
  .transform(({ id, idEF, ...order }) => ({ ...order, idEF: idEF ?? id }));

export type StpOrder = z.output<typeof stpOrder>;

/** `PUT ordenPago/registra`: `id` > 0 accepted (STP's id of the order), otherwise a refusal code. */
export const registraAnswer = z.object({
  resultado: z.object({
    id: integer,
    descripcionError: text,
  }),
});

export type RegistraAnswer = z.output<typeof registraAnswer>;

/** The answers' `mensaje`, kept for the log; '' when STP sends none. */
const mensaje = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** `consultaOrden`: `estado` 0 with `respuesta` found; 6 not found. */
export const consultaAnswer = z.object({
  estado: integer,
  mensaje,
  respuesta: maybe(stpOrder),
});

export type ConsultaAnswer = z.output<typeof consultaAnswer>;

/** One page of `V2/conciliacion`: `estado` 0 with `datos`; 6 (with `total` 0) a day with none. */
export const conciliacionAnswer = z.object({
  estado: integer,
  mensaje,
  datos: maybe(z.array(stpOrder)),
  total: maybe(integer),
});

export type ConciliacionAnswer = z.output<typeof conciliacionAnswer>;

/**
 * `POST /notices/{routeId}/abono`: an incoming SPEI deposit (the 18 fields of section 16). `id` is STP's id
 * of the deposit, `monto` integer centavos, `cuentaBeneficiario` the CLABE that was paid.
 */
export const abonoBody = z.object({
  id: integer,
  fechaOperacion: maybe(code),
  institucionOrdenante: maybe(code),
  institucionBeneficiaria: maybe(code),
  claveRastreo: z.string().min(1),
  monto: centavos,
  nombreOrdenante: text,
  tipoCuentaOrdenante: maybe(integer),
  cuentaOrdenante: text,
  rfcCurpOrdenante: text,
  nombreBeneficiario: text,
  tipoCuentaBeneficiario: maybe(integer),
  cuentaBeneficiario: z.string().min(1),
  rfcCurpBeneficiario: text,
  conceptoPago: text,
  referenciaNumerica: maybe(integer),
  empresa: z.string(),
  tsLiquidacion: settledAt,
});

export type AbonoBody = z.output<typeof abonoBody>;

/**
 * `POST /notices/{routeId}/cambio-estado`: a payout's new state. `id` is STP's id from `registraOrden`;
 * `estado` is a code (`LQ`, `D`, `CN`, ...) or a word (`Success`, `Cancel`, `Devuelta`): see stp.mapping.ts.
 */
export const cambioEstadoBody = z.object({
  id: integer,
  empresa: text,
  folioOrigen: maybe(code),
  estado: z.string().min(1),
  causaDevolucion: maybe(code),
  tsLiquidacion: settledAt,
});

export type CambioEstadoBody = z.output<typeof cambioEstadoBody>;
