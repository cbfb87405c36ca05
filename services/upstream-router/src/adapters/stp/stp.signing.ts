// STP's request signatures: the *cadena original* of each call and its RSA PKCS#1 v1.5 SHA-256 signature
// (the JSON field `firma`). STP rebuilds the cadena from the JSON it receives, so the rendering rules here
// (absent → empty, amounts with two decimals, integers as digits) must match what is sent, byte for byte.

import { constants, createPrivateKey, type KeyObject, sign as rsaSign } from 'node:crypto';
import { formatMonto, parseMonto } from './stp.text.js';

/** The 34 fields of a payout's cadena (`registraOrden`), in STP's order. */
export const REGISTRA_FIELDS = [
  'institucionContraparte',
  'empresa',
  'fechaOperacion',
  'folioOrigen',
  'claveRastreo',
  'institucionOperante',
  'monto',
  'tipoPago',
  'tipoCuentaOrdenante',
  'nombreOrdenante',
  'cuentaOrdenante',
  'rfcCurpOrdenante',
  'tipoCuentaBeneficiario',
  'nombreBeneficiario',
  'cuentaBeneficiario',
  'rfcCurpBeneficiario',
  'emailBeneficiario',
  'tipoCuentaBeneficiario2',
  'nombreBeneficiario2',
  'cuentaBeneficiario2',
  'rfcCurpBeneficiario2',
  'conceptoPago',
  'conceptoPago2',
  'claveCatUsuario1',
  'claveCatUsuario2',
  'clavePago',
  'referenciaCobranza',
  'referenciaNumerica',
  'tipoOperacion',
  'topologia',
  'usuario',
  'medioEntrega',
  'prioridad',
  'iva',
] as const;

export type RegistraField = (typeof REGISTRA_FIELDS)[number];

/** Fields that are amounts in pesos: signed with exactly two decimals whatever form they arrive in. */
const AMOUNT_FIELDS: ReadonlySet<string> = new Set(['monto', 'iva']);

/** One value as STP renders it in a cadena. Throws on a value STP could not have rebuilt the same way. */
function render(field: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (AMOUNT_FIELDS.has(field)) {
    const centavos = parseMonto(value);
    if (centavos === undefined) throw new RangeError(`${field} is not an amount with at most two decimals`);
    return formatMonto(centavos);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    // A float or an exponent form would be rendered differently by STP's side: only plain integers.
    if (!Number.isSafeInteger(value)) throw new RangeError(`${field} must be an integer, got ${value}`);
    return String(value);
  }
  throw new TypeError(`${field} must be a string or a number, got ${typeof value}`);
}

const cadena = (values: string[]) => `||${values.join('|')}||`;

/** The cadena of `registraOrden` over REGISTRA_FIELDS; fields of `order` outside them are not signed. */
export function cadenaRegistra(order: Record<string, unknown>): string {
  return cadena(REGISTRA_FIELDS.map((field) => render(field, order[field])));
}

/** The cadena of `consultaOrden`; `fechaOperacion` absent asks about the current operation day. */
export function cadenaConsulta(query: {
  empresa: string;
  claveRastreo: string;
  tipoOrden: 'E' | 'R';
  fechaOperacion?: string | undefined;
}): string {
  return cadena([
    render('empresa', query.empresa),
    render('claveRastreo', query.claveRastreo),
    render('tipoOrden', query.tipoOrden),
    render('fechaOperacion', query.fechaOperacion),
  ]);
}

/** The cadena of `conciliacion` (one day's orders of one direction). */
export function cadenaConciliacion(query: {
  empresa: string;
  tipoOrden: 'E' | 'R';
  fechaOperacion: string;
}): string {
  return cadena([
    render('empresa', query.empresa),
    render('tipoOrden', query.tipoOrden),
    render('fechaOperacion', query.fechaOperacion),
  ]);
}

/**
 * The participant's RSA private key from its PEM (STP issues encrypted PKCS#8). Throws an Error naming
 * only what went wrong (OpenSSL's code): never the PEM or the passphrase, which callers may log.
 */
export function loadSigningKey(pem: string, passphrase: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem', passphrase });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new Error(
      `STP signing key does not load (${typeof code === 'string' ? code : 'unreadable'}): ` +
        'not a PEM private key, or the wrong passphrase',
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new Error(`STP signing key must be RSA, got ${key.asymmetricKeyType ?? 'unknown'}`);
  return key;
}

/** `firma`: RSA PKCS#1 v1.5 over SHA-256 of the cadena's UTF-8 bytes, standard Base64 on one line. */
export function sign(cadenaOriginal: string, key: KeyObject): string {
  return rsaSign('sha256', Buffer.from(cadenaOriginal, 'utf8'), {
    key,
    padding: constants.RSA_PKCS1_PADDING,
  }).toString('base64');
}
