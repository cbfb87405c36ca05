// The cadena original STP rebuilds from the JSON it receives and checks `firma` against (CONTRACT.md
// section 16 "Signing"), written from the contract's text alone. Amounts are read by their decimal text
// into integer centavos and rendered back from them: never through float arithmetic.

/** The 34 fields of registraOrden's cadena, in the contract's order. */
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

/** Fields rendered with exactly two decimals. */
const MONEY_FIELDS: ReadonlySet<string> = new Set(['monto', 'iva']);

const AMOUNT_TEXT = /^(\d{1,15})(?:\.(\d{1,2}))?$/;

/**
 * Centavos of an amount as STP receives it: a JSON number (`1.2`, read by its shortest round-trip text,
 * which is the text sent for any amount of at most 15 significant digits) or a string (`"1.20"`); at most
 * two decimals. Undefined for anything else (a negative, an exponent, a third decimal).
 */
export function parseMonto(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;
  const m = text === undefined ? null : AMOUNT_TEXT.exec(text);
  if (!m) return undefined;
  const centavos = Number(`${m[1]}${(m[2] ?? '').padEnd(2, '0')}`);
  return Number.isSafeInteger(centavos) ? centavos : undefined;
}

/** Integer centavos as STP's text: `120` → `"1.20"`, with exactly two decimals. */
export function formatMonto(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0)
    throw new RangeError(`formatMonto: ${centavos} is not a non-negative integer`);
  const digits = String(centavos).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Centavos as the JSON number STP sends (`120` → `1.2`): the double nearest the exact decimal. */
export function montoNumber(centavos: number): number {
  return Number(formatMonto(centavos));
}

/** One value of a cadena: absent as empty, money with two decimals, numbers as their digits. */
function cadenaValue(field: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (MONEY_FIELDS.has(field)) {
    const centavos = parseMonto(value);
    // A malformed amount is signed as it came; registraOrden refuses it after the signature.
    if (centavos !== undefined) return formatMonto(centavos);
  }
  return typeof value === 'string' ? value : String(value);
}

const cadena = (values: string[]) => `||${values.join('|')}||`;

/** registraOrden's cadena over the JSON received. */
export function cadenaRegistra(order: Record<string, unknown>): string {
  return cadena(REGISTRA_FIELDS.map((field) => cadenaValue(field, order[field])));
}

/** consultaOrden's cadena: `||empresa|claveRastreo|tipoOrden|fechaOperacion||`. */
export function cadenaConsulta(q: Record<string, unknown>): string {
  return cadena(['empresa', 'claveRastreo', 'tipoOrden', 'fechaOperacion'].map((f) => cadenaValue(f, q[f])));
}

/** conciliacion's cadena: `||empresa|tipoOrden|fechaOperacion||`. */
export function cadenaConciliacion(q: Record<string, unknown>): string {
  return cadena(['empresa', 'tipoOrden', 'fechaOperacion'].map((f) => cadenaValue(f, q[f])));
}
