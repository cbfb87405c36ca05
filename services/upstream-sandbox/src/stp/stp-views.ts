// The JSON shapes of the STP face: an order as consultaOrden and conciliacion show it, the two webhooks'
// bodies (CONTRACT.md section 16), and an order as the tester API shows it. Amounts go out as JSON numbers
// with at most two decimals (STP sends `1.2`), rendered from integer centavos.
import type { StpOrderRow, StpWebhookAttemptRow, StpWebhookRow } from '../db/schema.js';
import { montoNumber } from './stp-cadena.js';
import { STP_INSTITUTION } from './stp-registra.js';

const ms = (at: Date | null) => (at === null ? null : at.getTime());

/** States of a sent order in which Banxico has issued its CEP: liquidated (and liquidated, then returned). */
const CEP_STATES = new Set(['LQ', 'TLQ', 'D']);

/**
 * `urlCEP` of an order (CONTRACT section 21: STP's consultaOrden and conciliacion answer one for liquidated
 * orders): Banxico's CEP page for the order, by the sending institution (`i`), the operation day (`s`) and
 * the tracking key (`d`). Absent (null, as STP sends empty fields) until the order is liquidated. The form is
 * the emulator's own: a real one is whatever STP sends, and the platform passes it through unread.
 */
export function urlCep(o: StpOrderRow): string | null {
  // A received order reached STP already liquidated by the payer's bank: its CEP exists from then on.
  const liquidated = o.tipo_orden === 'R' ? o.ts_liquidacion !== null : CEP_STATES.has(o.estado);
  if (!liquidated) return null;
  const emisor = o.tipo_orden === 'E' ? STP_INSTITUTION : o.institucion_contraparte;
  const params = new URLSearchParams({ i: emisor, s: o.fecha_operacion, d: o.clave_rastreo });
  return `https://www.banxico.org.mx/cep/go?${params.toString()}`;
}

/** An order as consultaOrden's `respuesta` and each of conciliacion's `datos`; `statement` shows a tester's amount. */
export function respuesta(o: StpOrderRow, statement = false) {
  return {
    idEF: o.id,
    claveRastreo: o.clave_rastreo,
    estado: o.estado,
    monto: montoNumber(statement && o.statement_monto !== null ? o.statement_monto : o.monto),
    tsLiquidacion: ms(o.ts_liquidacion),
    causaDevolucion: o.causa_devolucion,
    cuentaBeneficiario: o.cuenta_beneficiario,
    cuentaOrdenante: o.cuenta_ordenante,
    nombreOrdenante: o.nombre_ordenante,
    nombreBeneficiario: o.nombre_beneficiario,
    institucionOperante: Number(STP_INSTITUTION),
    institucionContraparte: Number(o.institucion_contraparte),
    fechaOperacion: Number(o.fecha_operacion),
    tipoPago: o.tipo_pago,
    conceptoPago: o.concepto_pago,
    urlCEP: urlCep(o),
  };
}

/** The abono webhook's body: exactly the 18 fields of the contract. */
export function abonoBody(o: StpOrderRow) {
  return {
    id: o.id,
    fechaOperacion: Number(o.fecha_operacion),
    institucionOrdenante: Number(o.institucion_contraparte),
    institucionBeneficiaria: Number(STP_INSTITUTION),
    claveRastreo: o.clave_rastreo,
    monto: montoNumber(o.monto),
    nombreOrdenante: o.nombre_ordenante,
    tipoCuentaOrdenante: o.tipo_cuenta_ordenante,
    cuentaOrdenante: o.cuenta_ordenante,
    rfcCurpOrdenante: o.rfc_curp_ordenante,
    nombreBeneficiario: o.nombre_beneficiario,
    tipoCuentaBeneficiario: o.tipo_cuenta_beneficiario,
    cuentaBeneficiario: o.cuenta_beneficiario,
    rfcCurpBeneficiario: o.rfc_curp_beneficiario,
    conceptoPago: o.concepto_pago,
    referenciaNumerica: o.referencia_numerica,
    empresa: o.empresa,
    tsLiquidacion: ms(o.ts_liquidacion),
  };
}

/** The cambio-estado webhook's body about a sent order. */
export function cambioEstadoBody(o: StpOrderRow) {
  return {
    id: o.id,
    empresa: o.empresa,
    folioOrigen: o.folio_origen,
    estado: o.estado,
    causaDevolucion: o.causa_devolucion,
    tsLiquidacion: ms(o.ts_liquidacion),
  };
}

/** An order for testers: what STP shows, plus what the emulator knows and every webhook attempt. */
export function testerOrderView(o: StpOrderRow, webhooks: StpWebhookRow[], attempts: StpWebhookAttemptRow[]) {
  return {
    id: o.id,
    empresa: o.empresa,
    tipoOrden: o.tipo_orden,
    ...respuesta(o),
    statementMonto: o.statement_monto === null ? null : montoNumber(o.statement_monto),
    folioOrigen: o.folio_origen,
    referenciaNumerica: o.referencia_numerica,
    planned: o.planned,
    answer: o.answer,
    received: o.received,
    createdAt: o.created_at.toISOString(),
    webhooks: webhooks.map((w) => ({
      webhookId: w.id,
      kind: w.kind,
      url: w.url,
      body: JSON.parse(w.body) as unknown,
      attempts: w.attempts,
      deliveredAt: w.delivered_at?.toISOString() ?? null,
      gaveUpAt: w.gave_up_at?.toISOString() ?? null,
      lastStatus: w.last_status,
      lastError: w.last_error,
      answers: attempts
        .filter((a) => a.webhook_id === w.id)
        .map((a) => ({
          at: a.at.toISOString(),
          resend: a.resend,
          status: a.http_status,
          response: a.response,
          error: a.error,
        })),
    })),
  };
}
