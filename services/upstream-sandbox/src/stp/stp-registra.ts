// registraOrden's checks, in the order the emulator runs them, and the tester rules on the payee name.
// Every refusal is an id of CONTRACT.md section 16 with STP's kind of message; a firma is checked by the
// caller first (it needs the company's key), and −1 (claveRastreo already used) when the order is stored.
import { institutionBySpeiCode, validateClabe, validateDebitCard } from '@agentpay/spei';
import { MAX_AMOUNT_CENTAVOS } from '@agentpay/wire';
import type { StpPlanned } from '../db/schema.js';
import { parseMonto } from './stp-cadena.js';
import { isOperationDay } from './stp-day.js';

/** registraOrden's refusal ids (CONTRACT.md section 16), by what they mean. */
export const REFUSAL = {
  /** Signature or mandatory/invalid field: the route is misconfigured or the platform has a bug. */
  signatureOrField: 0,
  claveRastreoUsed: -1,
  accountNotFound: -7,
  invalidInstitution: -9,
  invalidAccountType: -11,
  invalidAmount: -20,
  clabeInstitutionMismatch: -22,
  sameAccount: -24,
  invalidClaveRastreo: -34,
  pld: -200,
} as const;

export interface Refusal {
  id: number;
  descripcionError: string;
}

/** An order that passed every check: the values to store, with centavos and the tester rules' plan. */
export interface AcceptedOrder {
  claveRastreo: string;
  fechaOperacion: string;
  monto: number;
  institucionContraparte: string;
  cuentaOrdenante: string;
  nombreOrdenante: string;
  tipoCuentaOrdenante: number;
  rfcCurpOrdenante: string;
  cuentaBeneficiario: string;
  nombreBeneficiario: string;
  tipoCuentaBeneficiario: number;
  rfcCurpBeneficiario: string;
  conceptoPago: string;
  referenciaNumerica: number;
  tipoPago: number;
  folioOrigen: string;
  planned: StpPlanned;
}

/** What the platform must send (the fields it fills, CONTRACT.md section 16), besides empresa and firma. */
export const MANDATORY_FIELDS = [
  'claveRastreo',
  'conceptoPago',
  'nombreBeneficiario',
  'cuentaBeneficiario',
  'tipoCuentaBeneficiario',
  'institucionContraparte',
  'rfcCurpBeneficiario',
  'cuentaOrdenante',
  'institucionOperante',
  'tipoCuentaOrdenante',
  'referenciaNumerica',
  'tipoPago',
  'topologia',
  'medioEntrega',
  'prioridad',
  'monto',
] as const;

/** STP's own institution code: every order is operated by it. */
export const STP_INSTITUTION = '90646';
/** Names and concepts the platform sends: folded to printable ASCII, at most 39 characters. */
const ASCII_39 = /^[\x20-\x7E]{1,39}$/;
const CLAVE_RASTREO = /^[A-Z0-9]{1,29}$/;

const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v));
/** An integer sent as a JSON number or as a string of digits. */
function integer(v: unknown): number | undefined {
  const t = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  return /^-?\d{1,15}$/.test(t) ? Number(t) : undefined;
}

const mandatory = (field: string): Refusal => ({
  id: REFUSAL.signatureOrField,
  descripcionError: `El campo ${field} es obligatorio`,
});
const invalid = (field: string): Refusal => ({
  id: REFUSAL.signatureOrField,
  descripcionError: `El campo ${field} no es valido`,
});

/**
 * Checks an order whose firma already verified, for the company whose CLABEs start with `clabePrefix`,
 * on operation day `today`; answers the refusal or what to store.
 */
export function checkOrder(
  body: Record<string, unknown>,
  company: { clabePrefix: string },
  today: string,
): { refusal: Refusal } | { order: AcceptedOrder } {
  for (const field of MANDATORY_FIELDS) if (!present(body[field])) return { refusal: mandatory(field) };
  for (const [field, value] of Object.entries(body))
    if (value !== null && typeof value === 'object') return { refusal: invalid(field) };

  // The platform's own values, fixed by the contract: a difference is its bug, never the payee's.
  if (text(body.institucionOperante) !== STP_INSTITUTION) return { refusal: invalid('institucionOperante') };
  if (integer(body.tipoPago) !== 1) return { refusal: invalid('tipoPago') };
  if (integer(body.tipoCuentaOrdenante) !== 40) return { refusal: invalid('tipoCuentaOrdenante') };
  if (!['T', 'V'].includes(text(body.topologia))) return { refusal: invalid('topologia') };
  const medio = integer(body.medioEntrega);
  if (medio === undefined || medio < 1) return { refusal: invalid('medioEntrega') };
  const prioridad = integer(body.prioridad);
  if (prioridad !== 0 && prioridad !== 1) return { refusal: invalid('prioridad') };
  const referencia = integer(body.referenciaNumerica);
  if (referencia === undefined || referencia < 1 || referencia > 9_999_999)
    return { refusal: invalid('referenciaNumerica') };
  for (const field of ['nombreBeneficiario', 'conceptoPago'] as const)
    if (typeof body[field] !== 'string' || !ASCII_39.test(body[field])) return { refusal: invalid(field) };
  if (present(body.nombreOrdenante) && !ASCII_39.test(text(body.nombreOrdenante)))
    return { refusal: invalid('nombreOrdenante') };
  const rfc = text(body.rfcCurpBeneficiario);
  if (!/^[A-Z0-9]{2,18}$/.test(rfc)) return { refusal: invalid('rfcCurpBeneficiario') };
  // The company pays from its own account, one of the CLABEs STP gave it.
  const ordenante = text(body.cuentaOrdenante);
  if (!validateClabe(ordenante).ok || !ordenante.startsWith(company.clabePrefix))
    return { refusal: invalid('cuentaOrdenante') };
  // STP takes orders for the current operation day only; absent means today.
  const fecha = present(body.fechaOperacion) ? text(body.fechaOperacion) : today;
  if (!isOperationDay(fecha) || fecha !== today) return { refusal: invalid('fechaOperacion') };

  const claveRastreo = text(body.claveRastreo);
  if (!CLAVE_RASTREO.test(claveRastreo))
    return { refusal: { id: REFUSAL.invalidClaveRastreo, descripcionError: 'Clave de rastreo invalida' } };
  const monto = parseMonto(body.monto);
  if (monto === undefined || monto <= 0 || monto > MAX_AMOUNT_CENTAVOS)
    return { refusal: { id: REFUSAL.invalidAmount, descripcionError: 'Monto invalido' } };
  const tipoCuenta = integer(body.tipoCuentaBeneficiario);
  if (tipoCuenta !== 40 && tipoCuenta !== 3)
    return { refusal: { id: REFUSAL.invalidAccountType, descripcionError: 'Tipo de cuenta invalido' } };
  const contraparte = text(body.institucionContraparte);
  const institution = institutionBySpeiCode(contraparte);
  if (!institution)
    return { refusal: { id: REFUSAL.invalidInstitution, descripcionError: 'Institucion invalida' } };
  const cuenta = text(body.cuentaBeneficiario);
  const accountFits =
    tipoCuenta === 40
      ? validateClabe(cuenta).ok && cuenta.startsWith(institution.clabe)
      : validateDebitCard(cuenta).ok;
  if (!accountFits)
    return {
      refusal: {
        id: REFUSAL.clabeInstitutionMismatch,
        descripcionError: 'La cuenta no corresponde a la institucion',
      },
    };
  if (cuenta === ordenante)
    return {
      refusal: { id: REFUSAL.sameAccount, descripcionError: 'Cuenta ordenante igual a beneficiaria' },
    };

  const name = text(body.nombreBeneficiario).toUpperCase();
  if (name.includes('REJECT'))
    return { refusal: { id: REFUSAL.accountNotFound, descripcionError: 'Cuenta inexistente' } };
  if (name.includes('PLD'))
    return { refusal: { id: REFUSAL.pld, descripcionError: 'Orden rechazada por PLD' } };

  return {
    order: {
      claveRastreo,
      fechaOperacion: fecha,
      monto,
      institucionContraparte: contraparte,
      cuentaOrdenante: ordenante,
      nombreOrdenante: text(body.nombreOrdenante),
      tipoCuentaOrdenante: 40,
      rfcCurpOrdenante: text(body.rfcCurpOrdenante),
      cuentaBeneficiario: cuenta,
      nombreBeneficiario: text(body.nombreBeneficiario),
      tipoCuentaBeneficiario: tipoCuenta,
      rfcCurpBeneficiario: rfc,
      conceptoPago: text(body.conceptoPago),
      referenciaNumerica: referencia,
      tipoPago: 1,
      folioOrigen: text(body.folioOrigen),
      planned: plannedEnd(name),
    },
  };
}

/** How an accepted order ends, from its payee name (upper case): FAIL cancelled, RETURN liquidated then returned. */
export function plannedEnd(name: string): StpPlanned {
  if (name.includes('FAIL')) return 'cancel';
  if (name.includes('RETURN')) return 'return';
  return 'liquidate';
}
