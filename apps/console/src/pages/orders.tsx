import {
  CepLink,
  CopyText,
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  mergeDictionaries,
  Notice,
  OrderListPage,
  orderPagesMessages,
  type PendingApproval,
  RecordFacts,
  type RecordKind,
  RecordPage,
  Timeline,
  type TimelineEvent,
  useI18n,
  useMay,
  useRecordView,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { MAY_RESEND, MAY_SYNC, type OrdersApi, ordersApi } from './orders.api';

// Orders and transfers for operators (CONTRACT section 18): search by any of an order's numbers, its
// claveRastreo or CLABE, filtered by merchant, status and days, paged by the server; an order's or a
// transfer's page with one timeline of everything that happened to it, and the actions the person's roles
// allow (sync, resend a callback). The pieces the dashboard shows too live in packages/ui/src/orders.tsx and
// order-pages.tsx.

export const ordersMessages = mergeDictionaries(
  orderPagesMessages,
  defineDictionaries(
    {
      'orders.title': 'Órdenes de pago',
      'transfers.title': 'Transferencias',
      'orders.actions': 'Acciones',
      'orders.sync': 'Sincronizar con el canal',
      'orders.synced': 'Sincronizada: el estado es {status}.',
      'orders.resend': 'Reenviar notificación',
      'orders.resendOf': 'del {at}',
      'orders.resent': 'Se reenvió la notificación {id}; el intento nuevo aparecerá en la historia.',
      'orders.approval': 'La solicitud espera aprobación ({id}).',
      'orders.noRastreo': 'Aún sin clave de rastreo.',
    },
    {
      'orders.title': 'Pay orders',
      'transfers.title': 'Transfers',
      'orders.actions': 'Actions',
      'orders.sync': 'Sync with the channel',
      'orders.synced': 'Synced: the status is {status}.',
      'orders.resend': 'Resend callback',
      'orders.resendOf': 'of {at}',
      'orders.resent': 'Callback {id} was resent; the new attempt will show in the history.',
      'orders.approval': 'The request waits for approval ({id}).',
      'orders.noRastreo': 'No tracking key yet.',
    },
  ),
);

function useOrdersApi(ctx: PageContext) {
  return useMemo(() => ordersApi(ctx.api.client), [ctx.api]);
}

export function OrdersPage(ctx: PageContext) {
  const api = useOrdersApi(ctx);
  return <OrderListPage calls={api} kind="orders" router={ctx.router} withMerchant />;
}

export function TransfersPage(ctx: PageContext) {
  const api = useOrdersApi(ctx);
  return <OrderListPage calls={api} kind="transfers" router={ctx.router} withMerchant />;
}

type Outcome = { ok?: string; error?: unknown } | null;
type Act = ReturnType<typeof useOutcome>['act'];

/** What an action answered, in words: done, or waiting for a second person. */
function useOutcome() {
  const { t } = useI18n();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const act = async <T,>(
    work: () => Promise<{ done: T } | { approval: PendingApproval }>,
    done: (value: T) => string,
  ) => {
    setOutcome(null);
    try {
      const answer = await work();
      setOutcome({
        ok: 'approval' in answer ? t('orders.approval', { id: answer.approval.id }) : done(answer.done),
      });
      return true;
    } catch (error) {
      setOutcome({ error });
      return false;
    }
  };
  const shown = (
    <>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
    </>
  );
  return { act, shown };
}

/** The resend button on a callback event, for a person whose roles allow it. */
function useResendAction(api: ReturnType<typeof ordersApi>, act: Act, after: () => void) {
  const { t, lang } = useI18n();
  const may = useMay();
  if (!may(MAY_RESEND)) return undefined;
  return (event: TimelineEvent) => {
    // One button per callback (its first event, when it was queued), not one per attempt of it.
    const deliveryId = event.deliveryId;
    if (event.kind !== 'callback.queued' || !deliveryId) return null;
    return (
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          if (
            await act(
              () => api.resend(deliveryId),
              () => t('orders.resent', { id: deliveryId }),
            )
          )
            after();
        }}
      >
        {t('orders.resend')}
        <span class="vh"> {t('orders.resendOf', { at: formatDateTime(event.at, lang) })}</span>
      </button>
    );
  };
}

/** Sync asks the channel for the order's state and moves the order to it (operators whose roles allow). */
function SyncAction(props: { api: OrdersApi; orderNo: string; act: Act; onSynced(): void }) {
  const { t } = useI18n();
  return (
    <>
      <h2>{t('orders.actions')}</h2>
      <button
        type="button"
        onClick={async () => {
          if (
            await props.act(
              () => props.api.syncOrder(props.orderNo),
              (answer) => t('orders.synced', { status: t(`ordersUi.status.${answer.order.status}`) }),
            )
          )
            props.onSynced();
        }}
      >
        {t('orders.sync')}
      </button>
    </>
  );
}

/** An order's or a transfer's page: the claveRastreo, the facts, the actions allowed, the timeline. */
function Detail(props: { ctx: PageContext; kind: RecordKind }) {
  const { t } = useI18n();
  const api = useOrdersApi(props.ctx);
  const may = useMay();
  const record = useRecordView(api, props.kind, props.ctx.params);
  const { view } = record;
  const { act, shown } = useOutcome();
  const resend = useResendAction(api, act, view.reload);
  const { Link } = props.ctx.router;
  return (
    <RecordPage record={record} router={props.ctx.router} notices={shown}>
      {(of, data) => (
        <>
          <h2>{t('orders.facts')}</h2>
          {of.record.claveRastreo ? (
            <CopyText label={t('ordersUi.claveRastreo')} value={of.record.claveRastreo} />
          ) : (
            <p>{t('orders.noRastreo')}</p>
          )}
          <CepLink record={of.record} />
          <RecordFacts
            of={of}
            merchant={
              of.record.mchNo ? (
                <Link to={`merchants/${encodeURIComponent(of.record.mchNo)}`}>{of.record.mchNo}</Link>
              ) : (
                '—'
              )
            }
          />
          {of.kind === 'orders' && may(MAY_SYNC) && (
            <SyncAction api={api} orderNo={of.record.orderNo} act={act} onSynced={view.reload} />
          )}
          <div class="page-head">
            <h2>{t('orders.timeline')}</h2>
            <button type="button" class="secondary" onClick={view.reload}>
              {t('orders.refresh')}
            </button>
          </div>
          <Timeline label={t('orders.timeline')} events={data.timeline} action={resend} />
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
