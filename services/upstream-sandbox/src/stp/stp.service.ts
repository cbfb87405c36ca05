// The STP emulator's use cases (CONTRACT.md section 16 "The STP emulator"): registraOrden, consultaOrden
// and conciliacion as STP answers them, and the settlement of sent orders, driven by the scheduler over
// rows (settle_at, return_at) so a restart loses nothing. Deposits live in stp-deposit.service.ts.
import type { Logger } from '@agentpay/logger';
import type { Kysely, Transaction } from 'kysely';
import type { Database, StpCompanyRow, StpOrderRow, StpTipoOrden } from '../db/schema.js';
import { cadenaConciliacion, cadenaConsulta, cadenaRegistra } from './stp-cadena.js';
import { findCompany, type StpCompany, upsertCompany } from './stp-company.repository.js';
import { isOperationDay, operationDay } from './stp-day.js';
import {
  dayPage,
  findOrder,
  insertOrder,
  lockDueReturns,
  lockDueSettlements,
  transitionOrder,
} from './stp-order.repository.js';
import { checkOrder, REFUSAL } from './stp-registra.js';
import { firmaValid, publicKeyCache } from './stp-signature.js';
import { cambioEstadoBody, respuesta } from './stp-views.js';
import { enqueueWebhook } from './stp-webhook.repository.js';

/** An EFWS answer: the HTTP status and STP's JSON. */
export interface EfwsAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** STP's `estado` of an answer: 0 done, 1 signature refused, 2 bad request, 6 nothing found. */
export const EFWS_ESTADO = { ok: 0, firma: 1, invalid: 2, notFound: 6 } as const;

/** Estado of a sent order in flight (enviada), before it settles. */
export const SENT_IN_FLIGHT = 'E';
/** Causa a RETURN order comes back with (2: the account is blocked). */
export const RETURN_CAUSA = 2;

const BATCH = 50;
const NOT_FOUND: EfwsAnswer = {
  status: 400,
  body: { estado: EFWS_ESTADO.notFound, mensaje: 'No se encontraron datos relacionados' },
};
const refused = (estado: number, mensaje: string): EfwsAnswer => ({ status: 400, body: { estado, mensaje } });
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface StpSettings {
  settleDelayMs: number;
  pageSize: number;
  defaultCompany: StpCompany;
}

export function createStpService(db: Kysely<Database>, logger: Logger, settings: StpSettings) {
  const keyOf = publicKeyCache();
  const later = (from: Date) => new Date(from.getTime() + settings.settleDelayMs);

  /** The company named by a request whose firma verifies over `cadena`, or why not. */
  async function signedBy(
    body: Record<string, unknown>,
    cadena: string,
  ): Promise<{ company: StpCompanyRow } | { problem: 'empresa' | 'unknown' | 'firma' }> {
    const empresa = text(body.empresa);
    if (empresa === '') return { problem: 'empresa' };
    const company = await findCompany(db, empresa);
    if (!company) return { problem: 'unknown' };
    return firmaValid(cadena, body.firma, keyOf(company.public_key_pem)) ? { company } : { problem: 'firma' };
  }

  async function changed(trx: Transaction<Database>, order: StpOrderRow) {
    const company = await findCompany(trx, order.empresa);
    if (!company) return;
    await enqueueWebhook(trx, {
      orderId: order.id,
      kind: 'cambio-estado',
      url: `${company.webhook_base.replace(/\/+$/, '')}/cambio-estado`,
      body: JSON.stringify(cambioEstadoBody(order)),
    });
  }

  /** An EFWS request's common checks: fields present, a registered empresa, a firma that verifies. */
  async function efwsCompany(
    body: unknown,
    fields: string[],
    cadenaOf: (b: Record<string, unknown>) => string,
  ): Promise<{ body: Record<string, unknown>; company: StpCompanyRow } | { answer: EfwsAnswer }> {
    if (!isObject(body)) return { answer: refused(EFWS_ESTADO.invalid, 'Cuerpo invalido') };
    for (const field of [...fields, 'firma'])
      if (text(body[field]) === '')
        return { answer: refused(EFWS_ESTADO.invalid, `El campo ${field} es obligatorio`) };
    if (!['E', 'R'].includes(text(body.tipoOrden)))
      return { answer: refused(EFWS_ESTADO.invalid, 'El campo tipoOrden no es valido') };
    const fecha = body.fechaOperacion;
    if (fecha !== undefined && fecha !== null && fecha !== '' && !isOperationDay(text(fecha)))
      return { answer: refused(EFWS_ESTADO.invalid, 'El campo fechaOperacion no es valido') };
    const signed = await signedBy(body, cadenaOf(body));
    if ('company' in signed) return { body, company: signed.company };
    if (signed.problem === 'firma') return { answer: refused(EFWS_ESTADO.firma, 'Error validando la firma') };
    return { answer: refused(EFWS_ESTADO.invalid, `La empresa ${text(body.empresa)} no existe`) };
  }

  return {
    /** Writes the default company from the settings; every start makes it what the settings say. */
    async registerDefaultCompany(): Promise<void> {
      const row = await upsertCompany(db, settings.defaultCompany);
      if (!row)
        throw new Error(
          `STP_EMULATOR_CLABE_PREFIX ${settings.defaultCompany.clabePrefix} belongs to another company`,
        );
    },

    /** registraOrden: always HTTP 200, `{resultado: {id}}` or `{resultado: {id, descripcionError}}`. */
    async registra(body: unknown): Promise<{ resultado: { id: number; descripcionError?: string } }> {
      const refuse = (id: number, descripcionError: string) => {
        logger.info(
          { id, descripcionError, claveRastreo: isObject(body) ? body.claveRastreo : undefined },
          'stp registraOrden refused',
        );
        return { resultado: { id, descripcionError } };
      };
      if (!isObject(body)) return refuse(REFUSAL.signatureOrField, 'Cuerpo invalido');
      if (text(body.empresa) === '')
        return refuse(REFUSAL.signatureOrField, 'El campo empresa es obligatorio');
      if (text(body.firma) === '') return refuse(REFUSAL.signatureOrField, 'El campo firma es obligatorio');
      const signed = await signedBy(body, cadenaRegistra(body));
      if ('problem' in signed)
        return signed.problem === 'firma'
          ? refuse(REFUSAL.signatureOrField, 'Error validando la firma')
          : refuse(REFUSAL.signatureOrField, `La empresa ${text(body.empresa)} no existe`);
      const { company } = signed;
      const checked = checkOrder(body, { clabePrefix: company.clabe_prefix }, operationDay(new Date()));
      if ('refusal' in checked) return refuse(checked.refusal.id, checked.refusal.descripcionError);
      const o = checked.order;
      const stored = await insertOrder(db, {
        empresa: company.empresa,
        tipo_orden: 'E',
        fecha_operacion: o.fechaOperacion,
        clave_rastreo: o.claveRastreo,
        estado: SENT_IN_FLIGHT,
        monto: o.monto,
        statement_monto: null,
        institucion_contraparte: o.institucionContraparte,
        cuenta_ordenante: o.cuentaOrdenante,
        nombre_ordenante: o.nombreOrdenante,
        tipo_cuenta_ordenante: o.tipoCuentaOrdenante,
        rfc_curp_ordenante: o.rfcCurpOrdenante,
        cuenta_beneficiario: o.cuentaBeneficiario,
        nombre_beneficiario: o.nombreBeneficiario,
        tipo_cuenta_beneficiario: o.tipoCuentaBeneficiario,
        rfc_curp_beneficiario: o.rfcCurpBeneficiario,
        concepto_pago: o.conceptoPago,
        referencia_numerica: o.referenciaNumerica,
        tipo_pago: o.tipoPago,
        folio_origen: o.folioOrigen,
        planned: o.planned,
        answer: null,
        causa_devolucion: null,
        settle_at: later(new Date()),
        received: JSON.stringify(body),
      });
      if (!stored) return refuse(REFUSAL.claveRastreoUsed, 'La clave de rastreo ya fue utilizada');
      logger.info(
        { id: stored.id, claveRastreo: stored.clave_rastreo, planned: stored.planned },
        'stp order accepted',
      );
      return { resultado: { id: stored.id } };
    },

    /** consultaOrden: the order, or HTTP 400 with estado 6 when the company has none by that key. */
    async consulta(request: unknown): Promise<EfwsAnswer> {
      const checked = await efwsCompany(request, ['empresa', 'claveRastreo', 'tipoOrden'], cadenaConsulta);
      if ('answer' in checked) return checked.answer;
      const { body, company } = checked;
      const fecha = text(body.fechaOperacion);
      const order = await findOrder(db, {
        empresa: company.empresa,
        tipoOrden: text(body.tipoOrden) as StpTipoOrden,
        claveRastreo: text(body.claveRastreo),
        ...(fecha === '' ? {} : { fechaOperacion: fecha }),
      });
      if (!order) return NOT_FOUND;
      return {
        status: 200,
        body: {
          estado: EFWS_ESTADO.ok,
          mensaje: 'Datos consultados correctamente',
          respuesta: respuesta(order),
        },
      };
    },

    /** conciliacion: one page (from 1) of the company's day in one direction, with the day's total. */
    async conciliacion(request: unknown): Promise<EfwsAnswer> {
      const checked = await efwsCompany(
        request,
        ['empresa', 'tipoOrden', 'fechaOperacion'],
        cadenaConciliacion,
      );
      if ('answer' in checked) return checked.answer;
      const { body, company } = checked;
      const page = body.page === undefined ? 1 : Number(text(body.page));
      if (!Number.isSafeInteger(page) || page < 1)
        return refused(EFWS_ESTADO.invalid, 'El campo page no es valido');
      const { orders, total } = await dayPage(
        db,
        {
          empresa: company.empresa,
          tipoOrden: text(body.tipoOrden) as StpTipoOrden,
          fechaOperacion: text(body.fechaOperacion),
        },
        { offset: (page - 1) * settings.pageSize, limit: settings.pageSize },
      );
      if (total === 0)
        return {
          status: 200,
          body: { estado: EFWS_ESTADO.notFound, mensaje: 'No se encontraron datos relacionados', total: 0 },
        };
      return {
        status: 200,
        body: {
          estado: EFWS_ESTADO.ok,
          mensaje: 'Datos consultados correctamente',
          datos: orders.map((o) => respuesta(o, true)),
          total,
        },
      };
    },

    /**
     * Settles due sent orders (LQ, or CN for FAIL) and returns due RETURN orders (D), each with its
     * cambio-estado webhook in the same transaction; answers how many changed.
     */
    async settleDue(): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let count = 0;
        for (const order of await lockDueSettlements(trx, BATCH)) {
          const at = new Date();
          const next =
            order.planned === 'cancel'
              ? await transitionOrder(trx, order.id, SENT_IN_FLIGHT, { estado: 'CN', settle_at: null })
              : await transitionOrder(trx, order.id, SENT_IN_FLIGHT, {
                  estado: 'LQ',
                  settle_at: null,
                  ts_liquidacion: at,
                  return_at: order.planned === 'return' ? later(at) : null,
                });
          if (!next) continue;
          await changed(trx, next);
          count++;
        }
        for (const order of await lockDueReturns(trx, BATCH)) {
          const next = await transitionOrder(trx, order.id, 'LQ', {
            estado: 'D',
            causa_devolucion: RETURN_CAUSA,
            return_at: null,
          });
          if (!next) continue;
          await changed(trx, next);
          count++;
        }
        return count;
      });
    },
  };
}

export type StpService = ReturnType<typeof createStpService>;
