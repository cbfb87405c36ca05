// A tester's deposit to a company's CLABE (CONTRACT.md section 16 "Deposits and orders"): STP received it
// (an R order, liquidated at STP) and asks the company with the abono webhook whether to keep it. The first
// delivery is made while the tester waits; a failed one is retried by the scheduler with the notices'
// backoff, and the order's answer stays pending until the company answers confirmar or devolver.
import { randomBytes, randomInt } from 'node:crypto';
import { buildClabe, institutionByClabePrefix } from '@agentpay/spei';
import type { Kysely, Transaction } from 'kysely';
import type { Database, StpCompanyRow, StpOrderRow, StpWebhookRow } from '../db/schema.js';
import { ChannelError } from '../errors.js';
import { companyOwningClabe, findCompany } from './stp-company.repository.js';
import { operationDay } from './stp-day.js';
import { findOrderById, insertOrder } from './stp-order.repository.js';
import { abonoBody } from './stp-views.js';
import { attemptWebhook, type DeliveryOptions, type Outcome, scheduleRetry } from './stp-webhook.delivery.js';
import { enqueueWebhook, webhooksOf } from './stp-webhook.repository.js';

/** Estado of a received order whose abono the company has not answered yet (recibida). */
export const RECEIVED_UNANSWERED = 'R';

export interface StpDepositRequest {
  clabe: string;
  /** Centavos. */
  amount: number;
  notify: boolean;
  senderAccount?: string | undefined;
  senderName?: string | undefined;
  /** Checked against the CLABE's bank by the tester route; the CLABE's bank is what SPEI reports. */
  senderBank?: string | undefined;
  /** RFC/CURP of the payer; `ND` when absent. */
  senderRfc?: string | undefined;
  /** Centavos conciliacion shows instead of the real amount (a tester's trigger). */
  statementAmount?: number | undefined;
}

/** The payer when the tester names none: a BBVA MEXICO (012) CLABE, as the sandbox's own deposits. */
function generatedSender(): string {
  const digits = (randomBytes(8).readBigUInt64BE() % 100_000_000_000n).toString().padStart(11, '0');
  return buildClabe('012', '180', digits);
}

/** A received order's SPEI tracking key, as the payer's bank would make it: 28 of A-Z0-9. */
function receivedClave(at: Date): string {
  return `SBXS${operationDay(at)}${randomBytes(8).toString('hex').toUpperCase()}`;
}

const answerOf = (o: Outcome) => (o.kind === 'confirmar' || o.kind === 'devolver' ? o.kind : 'pending');
const abonoUrl = (company: StpCompanyRow) => `${company.webhook_base.replace(/\/+$/, '')}/abono`;

export function createStpDepositService(
  db: Kysely<Database>,
  settings: { beneficiaryName: string; delivery: DeliveryOptions },
) {
  const { delivery } = settings;

  /** Queues the order's abono in `trx`, claimed for this caller's own first attempt. */
  function queueAbono(trx: Transaction<Database>, order: StpOrderRow, company: StpCompanyRow) {
    return enqueueWebhook(trx, {
      orderId: order.id,
      kind: 'abono',
      url: abonoUrl(company),
      body: JSON.stringify(abonoBody(order)),
      claimForMs: delivery.timeoutMs + 5_000,
    });
  }

  /** Sends a queued abono once, and leaves a failure to the scheduler. */
  async function deliver(webhook: StpWebhookRow): Promise<Outcome> {
    const outcome = await attemptWebhook(db, webhook, { timeoutMs: delivery.timeoutMs, resend: false });
    if (outcome.kind === 'failed') await scheduleRetry(db, webhook, outcome, delivery);
    return outcome;
  }

  /** Queues the order's abono claimed for this caller, sends it, and leaves a failure to the scheduler. */
  async function firstDelivery(order: StpOrderRow, company: StpCompanyRow): Promise<Outcome> {
    return deliver(await db.transaction().execute((trx) => queueAbono(trx, order, company)));
  }

  return {
    /** The company a CLABE belongs to, when it starts with a registered company's prefix. */
    companyOf(clabe: string): Promise<StpCompanyRow | undefined> {
      return companyOwningClabe(db, clabe);
    },

    /** Records the received order and, unless the tester says not to notify, asks the company. */
    async deposit(company: StpCompanyRow, request: StpDepositRequest) {
      if (!/^\d{18}$/.test(request.clabe))
        throw new ChannelError('invalid_request', 'clabe: an STP CLABE has 18 digits');
      const sender = request.senderAccount ?? generatedSender();
      const bank = institutionByClabePrefix(sender.slice(0, 3));
      if (!bank) throw new ChannelError('invalid_request', 'senderAccount: not a CLABE of a SPEI bank');
      const at = new Date();
      const body = {
        clabe: request.clabe,
        amount: request.amount,
        senderAccount: sender,
        senderName: request.senderName ?? 'PAGADOR SANDBOX',
      };
      // The order and its abono commit together: a process that dies between them must not leave money at
      // STP that nobody is ever asked about (the scheduler then sends the abono once the claim lapses).
      const stored = await db.transaction().execute(async (trx) => {
        const order = await insertOrder(trx, {
          empresa: company.empresa,
          tipo_orden: 'R',
          fecha_operacion: operationDay(at),
          clave_rastreo: receivedClave(at),
          estado: RECEIVED_UNANSWERED,
          monto: request.amount,
          statement_monto: request.statementAmount ?? null,
          institucion_contraparte: bank.spei,
          cuenta_ordenante: sender,
          nombre_ordenante: body.senderName.slice(0, 39),
          tipo_cuenta_ordenante: 40,
          rfc_curp_ordenante: request.senderRfc ?? 'ND',
          cuenta_beneficiario: request.clabe,
          nombre_beneficiario: settings.beneficiaryName.slice(0, 39),
          tipo_cuenta_beneficiario: 40,
          rfc_curp_beneficiario: 'ND',
          concepto_pago: 'PAGO SANDBOX',
          referencia_numerica: randomInt(1, 10_000_000),
          tipo_pago: 1,
          folio_origen: '',
          planned: null,
          answer: 'pending',
          causa_devolucion: null,
          ts_liquidacion: at,
          received: JSON.stringify(body),
        });
        if (!order) throw new Error('a fresh claveRastreo collided');
        return { order, webhook: request.notify ? await queueAbono(trx, order, company) : undefined };
      });
      const { order } = stored;
      const outcome = stored.webhook ? await deliver(stored.webhook) : undefined;
      return {
        id: order.id,
        claveRastreo: order.clave_rastreo,
        empresa: order.empresa,
        fechaOperacion: order.fecha_operacion,
        answer: outcome ? answerOf(outcome) : 'pending',
        notify: request.notify,
      };
    },

    /**
     * Sends a received order's abono again, same id and bytes, and answers what the company said; the
     * first decisive answer stays the one that counts. An order never notified gets its first abono.
     */
    async resend(id: number) {
      const order = await findOrderById(db, id);
      if (order?.tipo_orden !== 'R') throw new ChannelError('not_found', 'no such received order');
      const webhook = (await webhooksOf(db, id)).find((w) => w.kind === 'abono');
      let outcome: Outcome;
      if (webhook)
        outcome = await attemptWebhook(db, webhook, { timeoutMs: delivery.timeoutMs, resend: true });
      else {
        const owner = await findCompany(db, order.empresa);
        if (!owner) throw new ChannelError('not_found', `no company ${order.empresa}`);
        outcome = await firstDelivery(order, owner);
      }
      const now = await findOrderById(db, id);
      return {
        id,
        claveRastreo: order.clave_rastreo,
        status: outcome.status,
        answer: outcome.kind === 'failed' ? 'failed' : outcome.kind,
        ...(outcome.kind === 'devolver' ? { causaDevolucion: outcome.causa } : {}),
        ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
        estado: now?.estado ?? order.estado,
        body: JSON.parse(webhook?.body ?? JSON.stringify(abonoBody(order))) as unknown,
      };
    },
  };
}

export type StpDepositService = ReturnType<typeof createStpDepositService>;
