import type { ComponentChildren } from 'preact';
import type { ApiClient, Query } from './api';
import { ErrorNotice, Loading, Page } from './components';
import { defineDictionaries, mergeDictionaries, useI18n } from './i18n';
import {
  MissingParts,
  type OrderDetail,
  OrderFacts,
  OrderSearchList,
  type OrderView,
  orderPage,
  ordersUiMessages,
  orderView,
  resentDelivery,
  type TransferDetail,
  TransferFacts,
  type TransferView,
  transferPage,
  transferView,
} from './orders';
import type { Router } from './router';
import { useResource } from './use-resource';

// The skeleton of the console's and the dashboard's orders and transfers pages (docs/console.md "Orders and
// transfers"): the calls under each app's API prefix, the search page, and an order's or a transfer's page
// around what each app shows of it. The app's dictionary gives the pages' own texts (`orders.title`,
// `orders.order`, `orders.back`, and the same under `transfers.`).

export type RecordKind = 'orders' | 'transfers';

/** The texts both apps' orders pages say alike; each app adds its own (titles, actions, hints). */
export const orderPagesMessages = mergeDictionaries(
  ordersUiMessages,
  defineDictionaries(
    {
      'nav.orders': 'Órdenes',
      'nav.transfers': 'Transferencias',
      'orders.order': 'Orden {no}',
      'orders.back': 'Volver a las órdenes',
      'transfers.transfer': 'Transferencia {no}',
      'transfers.back': 'Volver a las transferencias',
      'orders.facts': 'Datos',
      'orders.timeline': 'Historia',
      'orders.refresh': 'Actualizar',
    },
    {
      'nav.orders': 'Orders',
      'nav.transfers': 'Transfers',
      'orders.order': 'Order {no}',
      'orders.back': 'Back to the orders',
      'transfers.transfer': 'Transfer {no}',
      'transfers.back': 'Back to the transfers',
      'orders.facts': 'Facts',
      'orders.timeline': 'History',
      'orders.refresh': 'Refresh',
    },
  ),
);

const enc = encodeURIComponent;

/** The calls both apps make, under `prefix` (`/admin` or `/dashboard/api`). */
export function orderCalls(client: ApiClient, prefix: string) {
  return {
    orders: (query: Query) => client.get(`${prefix}/orders`, orderPage, query),
    order: (orderNo: string) => client.get(`${prefix}/orders/${enc(orderNo)}`, orderView),
    transfers: (query: Query) => client.get(`${prefix}/transfers`, transferPage, query),
    transfer: (transferNo: string) => client.get(`${prefix}/transfers/${enc(transferNo)}`, transferView),
    resend: (deliveryId: string) =>
      client.send('POST', `${prefix}/deliveries/${enc(deliveryId)}/resend`, undefined, resentDelivery),
  };
}
export type OrderCalls = ReturnType<typeof orderCalls>;

/** The search page of orders or of transfers; `withMerchant` adds the merchant filter and column. */
export function OrderListPage(props: {
  calls: OrderCalls;
  kind: RecordKind;
  router: Router;
  withMerchant: boolean;
}) {
  const { t } = useI18n();
  const list =
    props.kind === 'orders'
      ? ({ kind: 'orders', load: props.calls.orders } as const)
      : ({ kind: 'transfers', load: props.calls.transfers } as const);
  return (
    <Page title={t(`${props.kind}.title`)}>
      <OrderSearchList {...list} router={props.router} path={props.kind} withMerchant={props.withMerchant} />
    </Page>
  );
}

/** An order or a transfer, told apart by its kind. */
export type RecordOf =
  | { kind: 'orders'; record: OrderDetail }
  | { kind: 'transfers'; record: TransferDetail };
type RecordData = OrderView | TransferView;

/** Loads the order or the transfer the page's address names (`orderNo` or `transferNo`). */
export function useRecordView(calls: OrderCalls, kind: RecordKind, params: Record<string, string>) {
  const no = params[kind === 'orders' ? 'orderNo' : 'transferNo'] ?? '';
  const view = useResource<RecordData>(
    () => (kind === 'orders' ? calls.order(no) : calls.transfer(no)),
    [kind, no],
  );
  return { kind, no, view };
}
export type RecordView = ReturnType<typeof useRecordView>;

function recordOf(kind: RecordKind, data: RecordData): RecordOf | undefined {
  if (kind === 'orders') return 'order' in data && data.order ? { kind, record: data.order } : undefined;
  return 'transfer' in data && data.transfer ? { kind, record: data.transfer } : undefined;
}

/** An order's or a transfer's facts; `merchant` as for OrderFacts (the console's link, none on the dashboard). */
export function RecordFacts(props: { of: RecordOf; merchant?: ComponentChildren }) {
  return props.of.kind === 'orders' ? (
    <OrderFacts order={props.of.record} merchant={props.merchant} />
  ) : (
    <TransferFacts transfer={props.of.record} merchant={props.merchant} />
  );
}

/**
 * An order's or a transfer's page: the way back to the list, loading and errors, `notices` (what an action
 * answered), the parts that did not answer, then `children` with the record once it is there.
 */
export function RecordPage(props: {
  record: RecordView;
  router: Router;
  notices?: ComponentChildren;
  children(of: RecordOf, data: RecordData): ComponentChildren;
}) {
  const { t } = useI18n();
  const { kind, no, view } = props.record;
  const of = view.data && recordOf(kind, view.data);
  const { Link } = props.router;
  return (
    <Page title={t(kind === 'orders' ? 'orders.order' : 'transfers.transfer', { no })}>
      <p>
        <Link to={kind}>{t(`${kind}.back`)}</Link>
      </p>
      {view.loading && !view.data && <Loading />}
      {view.error !== undefined && <ErrorNotice error={view.error} />}
      {props.notices}
      {view.data && of && (
        <>
          <MissingParts missing={view.data.missing} />
          {props.children(of, view.data)}
        </>
      )}
    </Page>
  );
}
