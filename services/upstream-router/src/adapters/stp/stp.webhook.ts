// STP's two webhooks (CONTRACT.md section 16): `abono` (a deposit; the answer decides whether the money stays)
// and `cambio-estado` (a payout's new state). STP does not sign them: the route's allow-list says who may
// call, and a deposit is confirmed with consultaOrden before it pays anything (verifyDeposits).

import type { Webhook, WebhookCore, WebhookReply } from '../channel-adapter.js';
import { UpstreamUnavailableError } from '../channel-adapter.js';
import type { StpClient } from './stp.client.js';
import { payoutStatusOf } from './stp.mapping.js';
import { type AbonoBody, abonoBody, cambioEstadoBody } from './stp.protocol.js';
import { allowed, type StpRouteConfig } from './stp.route.js';

/**
 * `causa` of a `devolver` answer, by why the platform returns a deposit (STP's catalogue of return causes):
 * 1 the account does not exist, 3 the account is cancelled (its order is paid, closed or expired), 13 the
 * beneficiary does not recognise the payment (the amount is not the order's).
 */
export const RETURN_CAUSE = { unknown_account: 1, order_not_open: 3, amount_mismatch: 13 } as const;

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
): Promise<AbonoBody | WebhookReply> {
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
  return abono;
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
  const answer = await core.deposit({
    depositId: String(checked.id),
    clabe: checked.cuentaBeneficiario,
    amount: checked.monto,
    claveRastreo: checked.claveRastreo,
    paidAt: checked.tsLiquidacion,
    senderAccount: checked.cuentaOrdenante ?? '',
    senderName: checked.nombreOrdenante ?? '',
    appliedByChannel: false,
  });
  return answer.decision === 'accepted'
    ? reply(200, { mensaje: 'confirmar' })
    : reply(400, { mensaje: 'devolver', id: RETURN_CAUSE[answer.reason] });
}

async function cambioEstado(
  webhook: Webhook,
  config: StpRouteConfig,
  core: WebhookCore,
): Promise<WebhookReply> {
  const parsed = cambioEstadoBody.safeParse(parseJson(webhook.rawBody));
  if (!parsed.success) return reply(422, { mensaje: 'malformado' }, 'malformed');
  const change = parsed.data;
  if (change.empresa !== undefined && change.empresa !== '' && change.empresa !== config.empresa)
    return reply(403, { mensaje: 'rechazado' }, 'unverified');
  const status = payoutStatusOf(change.estado);
  // A state still in flight changes nothing on the platform.
  if (status === 'progress') return reply(200, { mensaje: 'recibido' });
  const outcome = await core.payout({
    noticeId: `${change.id}:${change.estado}`,
    payout: { upstreamRef: String(change.id) },
    status,
    finishedAt: change.tsLiquidacion,
  });
  // A payout the router has not recorded yet (its answer is still being written): STP sends it again.
  if (outcome === 'unknown') return reply(404, { mensaje: 'desconocido' }, 'unknown_target');
  return reply(200, { mensaje: 'recibido' });
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
      return cambioEstado(webhook, config, core);
    default:
      return reply(404, { mensaje: 'desconocido' }, 'malformed');
  }
}
