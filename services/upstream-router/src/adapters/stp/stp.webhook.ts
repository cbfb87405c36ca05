// STP's two webhooks (CONTRACT.md section 16): `abono` (a deposit; the answer decides whether the money stays)
// and `cambio-estado` (a payout's new state). STP does not sign them: the route's allow-list says who may
// call, a deposit is confirmed with consultaOrden before it pays anything (verifyDeposits), and so is a
// payout's new state before it changes the payout (verifyNotices).

import type { Webhook, WebhookCore, WebhookReply } from '../channel-adapter.js';
import { UpstreamUnavailableError } from '../channel-adapter.js';
import type { StpClient } from './stp.client.js';
import { payoutStatusOf, type StpPayoutStatus } from './stp.mapping.js';
import { type AbonoBody, abonoBody, type CambioEstadoBody, cambioEstadoBody } from './stp.protocol.js';
import { allowed, type StpRouteConfig } from './stp.route.js';
import { operationDay } from './stp.text.js';

/** Banxico's code of STP, the institution every payout of an STP route leaves from. */
const STP_INSTITUTION = '90646';

/**
 * `causa` of a `devolver` answer, by why the platform returns a deposit (STP's catalogue of return causes):
 * 1 the account does not exist, 3 the account is cancelled (its order is paid, closed or expired), 13 the
 * beneficiary does not recognise the payment (the amount is not the order's), 2 the account is blocked (the
 * payer is on a blocked-persons list: the answer must not say so, docs/compliance.md).
 */
export const RETURN_CAUSE = {
  unknown_account: 1,
  order_not_open: 3,
  amount_mismatch: 13,
  blocked_payer: 2,
} as const;

const reply = (status: number, body: unknown, refused?: WebhookReply['refused']): WebhookReply => ({
  status,
  body,
  refused,
});

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The deposit as STP itself records it, when `verifyDeposits` is on: an abono STP does not know (forged) or
 * that differs from STP's record is refused and pays nothing; STP unreachable is a 503, so STP asks again.
 */
async function verified(
  abono: AbonoBody,
  config: StpRouteConfig,
  client: () => StpClient,
): Promise<(AbonoBody & { urlCEP?: string | undefined }) | WebhookReply> {
  if (config.verifyDeposits === false) return abono;
  let order: Awaited<ReturnType<StpClient['consultaOrden']>>;
  try {
    order = await client().consultaOrden({
      claveRastreo: abono.claveRastreo,
      tipoOrden: 'R',
      fechaOperacion: abono.fechaOperacion,
    });
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) return reply(503, { mensaje: 'reintentar' });
    throw err;
  }
  if (!order) return reply(403, { mensaje: 'rechazado' }, 'unverified');
  const sameAccount = !order.cuentaBeneficiario || order.cuentaBeneficiario === abono.cuentaBeneficiario;
  if (order.monto !== abono.monto || !sameAccount) return reply(403, { mensaje: 'rechazado' }, 'unverified');
  // STP's own record may carry the deposit's CEP page (urlCEP); the abono itself never does.
  return { ...abono, urlCEP: order.urlCEP };
}

async function abono(
  webhook: Webhook,
  config: StpRouteConfig,
  core: WebhookCore,
  client: () => StpClient,
): Promise<WebhookReply> {
  const parsed = abonoBody.safeParse(parseJson(webhook.rawBody));
  // Not 400: to STP a 400 with `devolver` returns money, and this body names no deposit to return.
  if (!parsed.success) return reply(422, { mensaje: 'malformado' }, 'malformed');
  if (parsed.data.empresa !== config.empresa) return reply(403, { mensaje: 'rechazado' }, 'unverified');
  const checked = await verified(parsed.data, config, client);
  if ('status' in checked) return checked;
  let answer: Awaited<ReturnType<WebhookCore['deposit']>>;
  try {
    answer = await core.deposit({
      depositId: String(checked.id),
      clabe: checked.cuentaBeneficiario,
      amount: checked.monto,
      claveRastreo: checked.claveRastreo,
      paidAt: checked.tsLiquidacion,
      senderAccount: checked.cuentaOrdenante ?? '',
      senderName: checked.nombreOrdenante ?? '',
      senderBank: checked.institucionOrdenante ?? '',
      senderRfcCurp: checked.rfcCurpOrdenante ?? '',
      cepUrl: checked.urlCEP,
      appliedByChannel: false,
    });
  } catch (err) {
    // Screening could not answer: nothing is booked unscreened, and STP asks again.
    if (err instanceof UpstreamUnavailableError) return reply(503, { mensaje: 'reintentar' });
    throw err;
  }
  return answer.decision === 'accepted'
    ? reply(200, { mensaje: 'confirmar' })
    : reply(400, { mensaje: 'devolver', id: RETURN_CAUSE[answer.reason] });
}

type FinalState = {
  estado: string;
  status: Exclude<StpPayoutStatus, 'progress'>;
  finishedAt: Date | undefined;
  /** Banxico's CEP page STP's record gives (urlCEP), when it was asked and has one. */
  cepUrl?: string | undefined;
};

/**
 * The state STP itself holds for the payout a `cambio-estado` names, when `verifyNotices` is on: the notice
 * only says "ask". STP unreachable, or still showing the order in flight, is a 503 so STP sends it again; an
 * order STP does not have under that id is refused and changes nothing.
 */
async function stpState(
  change: CambioEstadoBody,
  core: WebhookCore,
  client: () => StpClient,
): Promise<FinalState | WebhookReply> {
  const held = await core.heldPayout({ upstreamRef: String(change.id) });
  // A payout the router has not recorded yet (its answer is still being written): STP sends it again.
  if (!held) return reply(404, { mensaje: 'desconocido' }, 'unknown_target');
  let order: Awaited<ReturnType<StpClient['consultaOrden']>>;
  try {
    order = await client().consultaOrden({
      claveRastreo: held.claveRastreo,
      tipoOrden: 'E',
      fechaOperacion: operationDay(held.sentAt),
    });
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) return reply(503, { mensaje: 'reintentar' });
    throw err;
  }
  if (!order || (order.idEF !== undefined && order.idEF !== change.id))
    return reply(403, { mensaje: 'rechazado' }, 'unverified');
  const status = payoutStatusOf(order.estado);
  if (status === 'progress') return reply(503, { mensaje: 'reintentar' });
  return { estado: order.estado, status, finishedAt: order.tsLiquidacion, cepUrl: order.urlCEP };
}

/**
 * A payout's new state. With `verifyNotices` (default on) the platform applies the state STP answers to
 * consultaOrden, never the one the notice claims: a forged "cancelled" for a payout STP paid re-applies
 * "paid", which changes nothing, and is counted as unverified. The answer is then `recibido`, since STP's
 * own state was applied and a notice sent again would only be refused again.
 */
async function cambioEstado(
  webhook: Webhook,
  config: StpRouteConfig,
  core: WebhookCore,
  client: () => StpClient,
): Promise<WebhookReply> {
  const parsed = cambioEstadoBody.safeParse(parseJson(webhook.rawBody));
  if (!parsed.success) return reply(422, { mensaje: 'malformado' }, 'malformed');
  const change = parsed.data;
  if (change.empresa !== undefined && change.empresa !== '' && change.empresa !== config.empresa)
    return reply(403, { mensaje: 'rechazado' }, 'unverified');
  const claimed = payoutStatusOf(change.estado);
  // A state still in flight changes nothing on the platform.
  if (claimed === 'progress') return reply(200, { mensaje: 'recibido' });
  let state: FinalState = { estado: change.estado, status: claimed, finishedAt: change.tsLiquidacion };
  if (config.verifyNotices !== false) {
    const checked = await stpState(change, core, client);
    if ('body' in checked) return checked;
    state = checked;
  }
  const outcome = await core.payout({
    noticeId: `${change.id}:${state.estado}`,
    payout: { upstreamRef: String(change.id) },
    status: state.status,
    finishedAt: state.finishedAt,
    cepUrl: state.cepUrl,
    senderBank: STP_INSTITUTION,
  });
  // A payout the router has not recorded yet (its answer is still being written): STP sends it again.
  if (outcome === 'unknown') return reply(404, { mensaje: 'desconocido' }, 'unknown_target');
  return reply(200, { mensaje: 'recibido' }, state.status === claimed ? undefined : 'unverified');
}

/** Handles one STP webhook on a route: the allow-list first, then the event the path names. */
export async function handleStpWebhook(
  webhook: Webhook,
  config: StpRouteConfig,
  core: WebhookCore,
  client: () => StpClient,
): Promise<WebhookReply> {
  if (!allowed(config.webhookAllow, webhook.remoteAddress))
    return reply(403, { mensaje: 'prohibido' }, 'forbidden');
  switch (webhook.event) {
    case 'abono':
      return abono(webhook, config, core, client);
    case 'cambio-estado':
      return cambioEstado(webhook, config, core, client);
    default:
      return reply(404, { mensaje: 'desconocido' }, 'malformed');
  }
}
