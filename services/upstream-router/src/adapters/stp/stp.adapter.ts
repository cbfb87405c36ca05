// The adapter for STP, the SPEI participant (CONTRACT.md section 16; docs/channels/stp.md). The platform
// assigns its CLABEs under the route's prefix and decides each deposit; payouts go through registraOrden
// with a tracking key made from the transfer number, so a resend after a lost answer is the same order at
// STP (−1), never a second payout. STP's vocabulary stops here.

import { createHash } from 'node:crypto';
import { validateClabe, validateDebitCard } from '@agentpay/spei';
import {
  type ChannelAdapter,
  type PayoutState,
  type RouteContext,
  type StatementLine,
  UpstreamNotFoundError,
  UpstreamUnavailableError,
} from '../channel-adapter.js';
import type { StpClient, TipoOrden } from './stp.client.js';
import { payoutStatusOf, refusalOf } from './stp.mapping.js';
import type { StpOrder } from './stp.protocol.js';
import { createKeyCache, routeClient, stpConfig, stpRouteConfig } from './stp.route.js';
import { foldAscii, formatMonto, operationDay } from './stp.text.js';
import { handleStpWebhook } from './stp.webhook.js';

/** STP's Banxico institution code: the operating institution of every order, and the bank of its CLABEs. */
export const STP_INSTITUTION = '90646';
/** Account types of SPEI: 40 CLABE, 3 debit card. */
const ACCOUNT_TYPE: Readonly<Record<string, number>> = { spei_transfer: 40, bank_card: 3 };
/** Orders read from a day listing before their platform references are looked up together. */
const LOOKUP_BATCH = 200;

/**
 * The SPEI tracking key of a transfer's payout: `AP` and the transfer number (A-Z0-9, at most 29), or, for a
 * number that does not fit, `AP` and 27 hex digits of its SHA-256. The same transfer always gets the same
 * key, so STP itself refuses a second order for it (−1).
 */
export function claveRastreoOf(transferNo: string): string {
  const plain = transferNo.toUpperCase();
  if (/^[A-Z0-9]{1,27}$/.test(plain)) return `AP${plain}`;
  return `AP${createHash('sha256').update(transferNo).digest('hex').slice(0, 27).toUpperCase()}`;
}

/** `referenciaNumerica` (1..9999999) of a transfer, stable for the transfer. */
function referenciaOf(transferNo: string): number {
  return (createHash('sha256').update(transferNo).digest().readUInt32BE(0) % 9_999_999) + 1;
}

function payoutState(order: StpOrder): PayoutState {
  return {
    status: payoutStatusOf(order.estado),
    finishedAt: order.tsLiquidacion,
    upstreamRef: order.idEF === undefined ? undefined : String(order.idEF),
    claveRastreo: order.claveRastreo,
    // A payout sent through STP leaves from STP's institution; its CEP page, once STP gives one, comes as urlCEP.
    senderBank: STP_INSTITUTION,
    cepUrl: order.urlCEP,
  };
}

/** The adapter for STP; every call times out after the route's `timeoutMs` or `timeoutMs`. */
export function createStpAdapter(options: { timeoutMs: number }): ChannelAdapter {
  const keyOf = createKeyCache();
  const client = (route: RouteContext): StpClient => routeClient(route, keyOf, options.timeoutMs);

  async function* listing(
    route: RouteContext,
    tipoOrden: TipoOrden,
    fechaOperacion: string,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<StpOrder[]> {
    let batch: StpOrder[] = [];
    for await (const order of client(route).conciliacion({ tipoOrden, fechaOperacion, signal })) {
      batch.push(order);
      if (batch.length >= LOOKUP_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  return {
    secretRefs: { privateKey: 'privateKeyRef', passphrase: 'passphraseRef' },

    configProblem(config, credentials) {
      const parsed = stpRouteConfig.safeParse(config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        if (issue?.code === 'unrecognized_keys') return `config.${issue.keys[0]}: unknown setting`;
        return `${['config', ...(issue?.path ?? []).map(String)].join('.')}: ${issue?.message ?? 'invalid'}`;
      }
      if (!credentials['privateKey']) return 'config.privateKeyRef: the variable it names is not set';
      try {
        keyOf(credentials['privateKey'], credentials['passphrase'] ?? '');
      } catch (err) {
        return `config.privateKeyRef: ${(err as Error).message}`;
      }
      return undefined;
    },

    accounts: {
      kind: 'assigned',
      clabePrefix: (route) => stpConfig(route).clabePrefix,
      reserved: (route) => [stpConfig(route).cuentaOrdenante],
      presentation: (route) => {
        const config = stpConfig(route);
        return {
          bankCode: STP_INSTITUTION,
          bankName: 'STP',
          beneficiaryName: config.beneficiaryName ?? config.empresa,
        };
      },
    },

    // STP offers no account lookup: a CLABE or card that passes its checks is `unknown`, never `valid`.
    async inquire(_route, request) {
      if (request.payeeType === 'spei_transfer')
        return validateClabe(request.payeeAccount).ok ? 'unknown' : 'invalid';
      if (request.payeeType === 'bank_card')
        return validateDebitCard(request.payeeAccount).ok ? 'unknown' : 'invalid';
      return 'invalid';
    },

    async submitPayout(route, request) {
      const config = stpConfig(route);
      const claveRastreo = claveRastreoOf(request.transferNo);
      const tipoCuenta = ACCOUNT_TYPE[request.payeeType];
      if (tipoCuenta === undefined)
        throw new UpstreamUnavailableError(`route ${route.id}: STP does not pay ${request.payeeType}`);
      const stp = client(route);
      const answer = await stp.registraOrden({
        claveRastreo,
        conceptoPago: foldAscii(request.reason, 39) || 'PAGO',
        cuentaBeneficiario: request.payeeAccount,
        cuentaOrdenante: config.cuentaOrdenante,
        institucionContraparte: request.upstreamCode,
        institucionOperante: STP_INSTITUTION,
        monto: formatMonto(request.amount),
        nombreBeneficiario: foldAscii(request.payeeName, 39) || 'ND',
        referenciaNumerica: referenciaOf(request.transferNo),
        rfcCurpBeneficiario: 'ND',
        tipoCuentaBeneficiario: tipoCuenta,
        tipoCuentaOrdenante: 40,
        tipoPago: 1,
        topologia: 'T',
        medioEntrega: 3,
        prioridad: 0,
      });
      const refusal = refusalOf(answer.resultado.id, answer.resultado.descripcionError ?? '');
      switch (refusal.kind) {
        case 'accepted':
          return {
            status: 'progress',
            upstreamRef: String(answer.resultado.id),
            claveRastreo,
            senderBank: STP_INSTITUTION,
          };
        case 'payee_refused':
          return {
            status: 'fail',
            upstreamRef: '',
            claveRastreo,
            refusal: `stp ${answer.resultado.id} ${refusal.code}`,
          };
        case 'already_exists': {
          // STP already has this transfer's order (an earlier send whose answer was lost): ask, never resend.
          const order = await stp.consultaOrden({ claveRastreo, tipoOrden: 'E' });
          if (!order)
            throw new UpstreamUnavailableError(`STP says ${claveRastreo} exists but does not find it`, {
              ambiguous: true,
            });
          const status = payoutStatusOf(order.estado) === 'fail' ? 'fail' : 'progress';
          return {
            status,
            upstreamRef: order.idEF === undefined ? '' : String(order.idEF),
            claveRastreo,
            senderBank: STP_INSTITUTION,
          };
        }
        case 'unavailable':
          throw new UpstreamUnavailableError(`route ${route.id}: ${refusal.reason}`);
        default: {
          const never: never = refusal;
          throw new Error(`unhandled refusal ${JSON.stringify(never)}`);
        }
      }
    },

    async queryPayout(route, ref) {
      const order = await client(route).consultaOrden({
        claveRastreo: claveRastreoOf(ref.transferNo),
        tipoOrden: 'E',
        fechaOperacion: ref.sentAt ? operationDay(ref.sentAt) : undefined,
      });
      if (!order) throw new UpstreamNotFoundError(`STP has no order for ${ref.transferNo}`);
      return payoutState(order);
    },

    async *fetchStatement(route, day, lookups, signal): AsyncGenerator<StatementLine> {
      const fechaOperacion = day.replaceAll('-', '');
      const dayStart = new Date(`${day}T06:00:00Z`);
      const line = (order: StpOrder, fields: Partial<StatementLine>): StatementLine => ({
        reference: `${order.idEF ?? order.claveRastreo}`,
        claveRastreo: order.claveRastreo.slice(0, 30),
        kind: 'payout',
        amount: order.monto ?? 0,
        occurredAt: order.tsLiquidacion ?? dayStart,
        account: order.cuentaBeneficiario ?? '',
        platformRef: '',
        upstreamRef: order.idEF === undefined ? '' : String(order.idEF),
        senderAccount: '',
        senderName: '',
        applied: true,
        ...fields,
      });
      // Payouts, and their returns (an order liquidated then sent back).
      for await (const orders of listing(route, 'E', fechaOperacion, signal)) {
        const ours = await lookups.payoutsByClaveRastreo(orders.map((o) => o.claveRastreo));
        for (const order of orders) {
          const status = payoutStatusOf(order.estado);
          if (status !== 'success' && status !== 'returned') continue;
          const platformRef = ours.get(order.claveRastreo)?.transferNo ?? '';
          yield line(order, { reference: `E-${order.idEF ?? order.claveRastreo}`, platformRef });
          if (status === 'returned')
            yield line(order, {
              reference: `E-${order.idEF ?? order.claveRastreo}-D`,
              kind: 'payout_return',
              platformRef,
            });
        }
      }
      // Deposits: the platform's answer to each says whether it stayed (paid an order) or went back.
      for await (const orders of listing(route, 'R', fechaOperacion, signal)) {
        const answers = await lookups.depositsByClaveRastreo(orders.map((o) => o.claveRastreo));
        for (const order of orders) {
          const answer = answers.get(order.claveRastreo);
          const status = payoutStatusOf(order.estado);
          const deposit = {
            reference: `R-${order.idEF ?? order.claveRastreo}`,
            senderAccount: order.cuentaOrdenante ?? '',
            senderName: order.nombreOrdenante ?? '',
          };
          if (status === 'returned' || (answer?.decision === 'returned' && status !== 'success'))
            yield line(order, { ...deposit, kind: 'deposit_returned', applied: false });
          else if (status === 'success')
            yield line(order, {
              ...deposit,
              kind: 'deposit',
              platformRef: answer?.decision === 'accepted' ? answer.orderNo : '',
              applied: answer?.decision === 'accepted',
            });
        }
      }
    },

    handleWebhook(route, webhook, core) {
      return handleStpWebhook(webhook, stpConfig(route), core, () => client(route));
    },
  };
}
