import type { ComponentChildren } from 'preact';
import type { ApiClient, Query } from './api';
import { ErrorNotice, Loading, Page } from './components';
import { defineDictionaries, mergeDictionaries, useI18n } from './i18n';
import {
  MissingParts,
  OrderSearchList,
  orderPage,
  ordersUiMessages,
  orderView,
  resentDelivery,
  type TimelineEvent,
  transferPage,
  transferView,
} from './orders';
import type { Router } from './router';
import type { Resource } from './use-resource';

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

/**
 * An order's or a transfer's page: the way back to the list, loading and errors, `notices` (what an action
 * answered), the parts that did not answer, then `children` with the record once it is there.
 */
export function RecordPage<
  V extends { timeline: readonly TimelineEvent[]; missing: readonly string[] },
  R,
>(props: {
  kind: RecordKind;
  no: string;
  router: Router;
  view: Resource<V>;
  record: R | undefined;
  notices?: ComponentChildren;
  children(record: R, data: V): ComponentChildren;
}) {
  const { t } = useI18n();
  const { view, record } = props;
  const { Link } = props.router;
  return (
    <Page title={t(props.kind === 'orders' ? 'orders.order' : 'transfers.transfer', { no: props.no })}>
      <p>
        <Link to={props.kind}>{t(`${props.kind}.back`)}</Link>
      </p>
      {view.loading && !view.data && <Loading />}
      {view.error !== undefined && <ErrorNotice error={view.error} />}
      {props.notices}
      {view.data && record && (
        <>
          <MissingParts missing={view.data.missing} />
          {props.children(record, view.data)}
        </>
      )}
    </Page>
  );
}
