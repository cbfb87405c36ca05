import {
  CepLink,
  CopyText,
  callbackAttempts,
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  mergeDictionaries,
  Notice,
  OrderListPage,
  orderPagesMessages,
  RecordFacts,
  type RecordKind,
  RecordPage,
  TableRegion,
  Timeline,
  type TimelineEvent,
  useI18n,
  useMay,
  useRecordView,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { MAY_REFUND, MAY_RESEND, type OrdersApi, ordersApi } from './orders.api';

// The merchant's own orders and transfers (CONTRACT section 18): the same search as the console's without the
// merchant filter (the server scopes every call to the signed-in person's merchant), and a detail page with
// the claveRastreo up front (the merchant gives it to its payer or payee), the callback attempts, and resend.

export const ordersMessages = mergeDictionaries(
  orderPagesMessages,
  defineDictionaries(
    {
      'orders.title': 'Mis órdenes de pago',
      'transfers.title': 'Mis transferencias',
      'orders.rastreoHint': 'Compártela con quien paga o recibe: con ella su banco localiza el SPEI.',
      'orders.noRastreo': 'La clave de rastreo aparece cuando el banco procesa el pago SPEI.',
      'orders.callbacks': 'Notificaciones a tu sistema',
      'orders.callbacksList': 'Intentos de notificación',
      'orders.noCallbacks': 'Aún no hay intentos de notificación.',
      'orders.attemptAt': 'Hora',
      'orders.attempt': 'Intento',
      'orders.httpStatus': 'Estado HTTP',
      'orders.outcome': 'Resultado',
      'orders.action': 'Acción',
      'orders.resend': 'Reenviar',
      'orders.resendOf': 'la notificación del {at}',
      'orders.resent': 'Se reenvió la notificación; el intento nuevo aparecerá aquí en unos segundos.',
      'orders.refund': 'Devolver al pagador',
      'orders.refundHint':
        'La devolución va a la cuenta que pagó esta orden, por SPEI, y se toma de tu saldo disponible (monto + comisión).',
      'orders.refundAmount': 'Monto en pesos (vacío: todo lo que queda)',
      'orders.refundReason': 'Motivo',
      'orders.refundSend': 'Devolver',
      'orders.refunded': 'Devolución {refundNo} de {amount} MXN: {status}.',
    },
    {
      'orders.title': 'My pay orders',
      'transfers.title': 'My transfers',
      'orders.rastreoHint':
        'Share it with whoever pays or is paid: with it, their bank finds the SPEI payment.',
      'orders.noRastreo': 'The tracking key shows once the bank processes the SPEI payment.',
      'orders.callbacks': 'Callbacks to your system',
      'orders.callbacksList': 'Callback attempts',
      'orders.noCallbacks': 'No callback attempts yet.',
      'orders.attemptAt': 'Time',
      'orders.attempt': 'Attempt',
      'orders.httpStatus': 'HTTP status',
      'orders.outcome': 'Outcome',
      'orders.action': 'Action',
      'orders.resend': 'Resend',
      'orders.resendOf': 'the callback of {at}',
      'orders.resent': 'The callback was resent; the new attempt will show here in a few seconds.',
      'orders.refund': 'Refund the payer',
      'orders.refundHint':
        'The refund goes by SPEI to the account that paid this order, taken from your available balance (amount + fee).',
      'orders.refundAmount': 'Amount in pesos (empty: all that is left)',
      'orders.refundReason': 'Reason',
      'orders.refundSend': 'Refund',
      'orders.refunded': 'Refund {refundNo} of {amount} MXN: {status}.',
    },
  ),
);

function useOrdersApi(ctx: PageContext) {
  return useMemo(() => ordersApi(ctx.api.client), [ctx.api]);
}

export function OrdersPage(ctx: PageContext) {
  const api = useOrdersApi(ctx);
  return <OrderListPage calls={api} kind="orders" router={ctx.router} withMerchant={false} />;
}

export function TransfersPage(ctx: PageContext) {
  const api = useOrdersApi(ctx);
  return <OrderListPage calls={api} kind="transfers" router={ctx.router} withMerchant={false} />;
}

/** The claveRastreo, large and easy to copy, or why there is none yet. */
function Rastreo(props: { value: string | undefined }) {
  const { t } = useI18n();
  if (!props.value) return <Notice kind="info">{t('orders.noRastreo')}</Notice>;
  return (
    <>
      <CopyText label={t('ordersUi.claveRastreo')} value={props.value} prominent />
      <p class="hint">{t('orders.rastreoHint')}</p>
    </>
  );
}

/** Each callback attempt (time, HTTP status, outcome); resend on the last attempt of each callback. */
function CallbackAttempts(props: { api: OrdersApi; timeline: readonly TimelineEvent[]; onResent(): void }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const attempts = callbackAttempts(props.timeline);
  const lastOf = new Map(attempts.map((a, i) => [a.deliveryId, i]));
  const resend = async (deliveryId: string) => {
    setOutcome(null);
    try {
      await props.api.resend(deliveryId);
      setOutcome({ ok: t('orders.resent') });
      props.onResent();
    } catch (error) {
      setOutcome({ error });
    }
  };
  const outcomeText = (value: string | undefined) => {
    if (!value) return '—';
    const text = t(`ordersUi.outcome.${value}`);
    return text === `ordersUi.outcome.${value}` ? value : text;
  };
  return (
    <>
      <h2>{t('orders.callbacks')}</h2>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {attempts.length === 0 ? (
        <p>{t('orders.noCallbacks')}</p>
      ) : (
        <TableRegion label={t('orders.callbacksList')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('orders.attemptAt')}</th>
                <th scope="col" class="num">
                  {t('orders.attempt')}
                </th>
                <th scope="col" class="num">
                  {t('orders.httpStatus')}
                </th>
                <th scope="col">{t('orders.outcome')}</th>
                {may(MAY_RESEND) && <th scope="col">{t('orders.action')}</th>}
              </tr>
            </thead>
            <tbody>
              {attempts.map((a, i) => (
                <tr key={`${a.at}-${i}`}>
                  <td class="nowrap">
                    <time dateTime={a.at}>{formatDateTime(a.at, lang)}</time>
                  </td>
                  <td class="num">{a.attempt ?? '—'}</td>
                  <td class="num">{a.httpStatus ?? t('ordersUi.noAnswer')}</td>
                  <td>{outcomeText(a.outcome)}</td>
                  {may(MAY_RESEND) && (
                    <td>
                      {a.deliveryId && lastOf.get(a.deliveryId) === i && (
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => a.deliveryId && resend(a.deliveryId)}
                        >
                          {t('orders.resend')}
                          <span class="vh"> {t('orders.resendOf', { at: formatDateTime(a.at, lang) })}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}

/** A refund of a paid order to its payer (CONTRACT section 21); one key per form, so a double click is one refund. */
function RefundForm(props: { api: OrdersApi; orderNo: string; onRefunded(): void }) {
  const { t } = useI18n();
  const [key, setKey] = useState(() => `DASH-${crypto.randomUUID()}`);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await props.api.refund(props.orderNo, {
        bizRefundNo: key,
        ...(amount.trim() ? { amount: Number(amount) } : {}),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      const done = 'done' in answer ? answer.done : undefined;
      if (done) {
        setOutcome({
          ok: t('orders.refunded', { refundNo: done.refundNo, amount: done.amount, status: done.status }),
        });
      }
      setKey(`DASH-${crypto.randomUUID()}`);
      setAmount('');
      setReason('');
      props.onRefunded();
    } catch (error) {
      setOutcome({ error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="refund" onSubmit={submit}>
      <h2>{t('orders.refund')}</h2>
      <p class="hint">{t('orders.refundHint')}</p>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      <label>
        {t('orders.refundAmount')}
        <input
          name="amount"
          inputMode="decimal"
          value={amount}
          onInput={(e) => setAmount((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        {t('orders.refundReason')}
        <input
          name="reason"
          maxLength={50}
          value={reason}
          onInput={(e) => setReason((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        {t('orders.refundSend')}
      </button>
    </form>
  );
}

function History(props: { timeline: readonly TimelineEvent[]; onRefresh(): void }) {
  const { t } = useI18n();
  return (
    <>
      <div class="page-head">
        <h2>{t('orders.timeline')}</h2>
        <button type="button" class="secondary" onClick={props.onRefresh}>
          {t('orders.refresh')}
        </button>
      </div>
      <Timeline label={t('orders.timeline')} events={props.timeline} />
    </>
  );
}

/** An order's or a transfer's page: the claveRastreo first, the facts, the callback attempts, the history. */
function Detail(props: { ctx: PageContext; kind: RecordKind }) {
  const { t } = useI18n();
  const may = useMay();
  const api = useOrdersApi(props.ctx);
  const record = useRecordView(api, props.kind, props.ctx.params);
  const { view } = record;
  return (
    <RecordPage record={record} router={props.ctx.router}>
      {(of, data) => (
        <>
          <Rastreo value={of.record.claveRastreo} />
          <CepLink record={of.record} />
          <h2>{t('orders.facts')}</h2>
          <RecordFacts of={of} />
          {of.kind === 'orders' && of.record.status === 'success' && may(MAY_REFUND) && (
            <RefundForm api={api} orderNo={of.record.orderNo} onRefunded={view.reload} />
          )}
          <CallbackAttempts api={api} timeline={data.timeline} onResent={view.reload} />
          <History timeline={data.timeline} onRefresh={view.reload} />
        </>
      )}
    </RecordPage>
  );
}

export function OrderPage(ctx: PageContext) {
  return <Detail ctx={ctx} kind="orders" />;
}

export function TransferPage(ctx: PageContext) {
  return <Detail ctx={ctx} kind="transfers" />;
}
