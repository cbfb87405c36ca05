import { type ComponentChildren, Fragment } from 'preact';
import { useId, useState } from 'preact/hooks';
import * as z from 'zod/mini';
import type { Query } from './api';
import { ErrorNotice, Loading, Notice, Pager, TableRegion } from './components';
import { formatCentavos, formatDateTime } from './format';
import { defineDictionaries, type Lang, useI18n } from './i18n';
import type { Router } from './router';
import { useResource } from './use-resource';

// What the console's and the dashboard's orders and transfers pages share: the answers' schemas (the same
// shapes on /admin and /dashboard/api, docs/console.md "Orders and transfers"), the search form, the
// timeline, the notice of parts that did not answer, and the claveRastreo a person copies for a payee.

export const ORDER_STATUSES = ['wait', 'progress', 'success', 'close', 'cancel', 'fail', 'timeout'] as const;
export const TRANSFER_STATUSES = ['progress', 'success', 'fail', 'close'] as const;

/** Amounts are integer centavos (CONTRACT section 5); the page formats them, never computes them. */
const centavos = z.int();

export const orderSummary = z.looseObject({
  orderNo: z.string(),
  mchNo: z.optional(z.string()),
  mchOrderNo: z.string(),
  amount: centavos,
  status: z.string(),
  clabe: z.optional(z.string()),
  claveRastreo: z.optional(z.string()),
  createdAt: z.string(),
  payTime: z.optional(z.nullable(z.string())),
});
export type OrderSummary = z.infer<typeof orderSummary>;

export const orderDetail = z.extend(orderSummary, {
  title: z.optional(z.string()),
  fee: z.optional(z.nullable(centavos)),
  realAmount: z.optional(z.nullable(centavos)),
  settleStatus: z.optional(z.nullable(z.string())),
  expiredTime: z.optional(z.nullable(z.string())),
  notifyUrl: z.optional(z.nullable(z.string())),
  appId: z.optional(z.nullable(z.string())),
  version: z.optional(z.union([z.number(), z.string()])),
});
export type OrderDetail = z.infer<typeof orderDetail>;

export const transferSummary = z.looseObject({
  transferNo: z.string(),
  mchNo: z.optional(z.string()),
  mchOrderNo: z.string(),
  amount: centavos,
  fee: z.optional(z.nullable(centavos)),
  status: z.string(),
  payeeAccount: z.string(),
  payeeName: z.string(),
  payeeBankName: z.optional(z.nullable(z.string())),
  claveRastreo: z.optional(z.string()),
  createdAt: z.string(),
  finishedAt: z.optional(z.nullable(z.string())),
});
export type TransferSummary = z.infer<typeof transferSummary>;
export const transferDetail = z.extend(transferSummary, {
  title: z.optional(z.nullable(z.string())),
  reason: z.optional(z.nullable(z.string())),
  notifyUrl: z.optional(z.nullable(z.string())),
  appId: z.optional(z.nullable(z.string())),
});
export type TransferDetail = z.infer<typeof transferDetail>;

export const timelineEvent = z.looseObject({
  at: z.string(),
  source: z.string(),
  kind: z.string(),
  summary: z.optional(z.string()),
  detail: z.optional(z.record(z.string(), z.unknown())),
  deliveryId: z.optional(z.nullable(z.string())),
});
export type TimelineEvent = z.infer<typeof timelineEvent>;

export const orderPage = z.object({ items: z.array(orderSummary), next: z.optional(z.string()) });
export const transferPage = z.object({ items: z.array(transferSummary), next: z.optional(z.string()) });
export const orderView = z.object({
  order: orderDetail,
  timeline: z.array(timelineEvent),
  missing: z.array(z.string()),
});
export type OrderView = z.infer<typeof orderView>;
export const transferView = z.object({
  transfer: transferDetail,
  timeline: z.array(timelineEvent),
  missing: z.array(z.string()),
});
export type TransferView = z.infer<typeof transferView>;
/** What a resend answers (the notifier's delivery); only its id and state matter to the page. */
export const resentDelivery = z.looseObject({ id: z.string(), status: z.optional(z.string()) });

export interface OrderSearchValues {
  q: string;
  mchNo: string;
  status: string;
  /** `YYYY-MM-DD`, a day in Mexico City. */
  from: string;
  to: string;
}

export const SEARCH_KEYS = ['q', 'mchNo', 'status', 'from', 'to'] as const;

/** The search as the page's address holds it (`?q=&status=&from=&to=`). */
export function searchFromQuery(query: URLSearchParams): OrderSearchValues {
  return {
    q: query.get('q') ?? '',
    mchNo: query.get('mchNo') ?? '',
    status: query.get('status') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Mexico City has kept UTC−6 all year since 2022: a day there is [00:00−06:00, next 00:00−06:00). */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const at = new Date(`${day}T00:00:00-06:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Date(at.getTime() + plusDays * 86_400_000).toISOString();
}

/** The API's query for a search: days become ISO instants, `to` taking in the whole of its day. */
export function searchToApi(values: OrderSearchValues, cursor: string, withMerchant: boolean) {
  const to = dayStart(values.to, 1);
  return {
    q: values.q.trim(),
    ...(withMerchant && { mchNo: values.mchNo.trim() }),
    status: values.status,
    from: dayStart(values.from),
    to: to && new Date(new Date(to).getTime() - 1).toISOString(),
    cursor,
    limit: 50,
  };
}

/** The search in the page's address: its values, the cursor, and a way to change them (a new address). */
export function useOrderSearch(router: Router, path: string) {
  const { query } = router.useLocation();
  const values = searchFromQuery(query);
  const cursor = query.get('cursor') ?? '';
  const go = (next: OrderSearchValues, nextCursor = '') => {
    const params = new URLSearchParams();
    for (const key of SEARCH_KEYS) if (next[key]) params.set(key, next[key]);
    if (nextCursor) params.set('cursor', nextCursor);
    router.navigate(`${path}${params.size ? `?${params}` : ''}`);
  };
  return { values, cursor, go, key: `${query}` };
}

/** The search box (number, merchant's number, claveRastreo or CLABE), merchant, status and days. */
export function OrderSearchForm(props: {
  kind: 'orders' | 'transfers';
  values: OrderSearchValues;
  /** The console filters by merchant; the dashboard is one merchant's already. */
  withMerchant: boolean;
  onSearch(values: OrderSearchValues): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const statuses = props.kind === 'orders' ? ORDER_STATUSES : TRANSFER_STATUSES;
  const v = props.values;
  return (
    <form
      class="inline"
      aria-label={t(`ordersUi.search.${props.kind}`)}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const get = (name: string) => String(data.get(name) ?? '').trim();
        props.onSearch({
          q: get('q'),
          mchNo: get('mchNo'),
          status: get('status'),
          from: get('from'),
          to: get('to'),
        });
      }}
    >
      <div class="field wide">
        <label for={`${id}-q`}>{t('ordersUi.q')}</label>
        <p class="hint" id={`${id}-q-hint`}>
          {t(`ordersUi.qHint.${props.kind}`)}
        </p>
        <input
          id={`${id}-q`}
          name="q"
          type="search"
          defaultValue={v.q}
          maxLength={64}
          aria-describedby={`${id}-q-hint`}
          autoComplete="off"
        />
      </div>
      {props.withMerchant && (
        <div class="field">
          <label for={`${id}-mch`}>{t('ordersUi.mchNo')}</label>
          <input id={`${id}-mch`} name="mchNo" defaultValue={v.mchNo} maxLength={32} class="short" />
        </div>
      )}
      <div class="field">
        <label for={`${id}-status`}>{t('ordersUi.status')}</label>
        {/* A <select>'s defaultValue is no DOM property: the chosen option carries `selected` instead. */}
        <select id={`${id}-status`} name="status">
          <option value="" selected={!v.status}>
            {t('ordersUi.anyStatus')}
          </option>
          {statuses.map((s) => (
            <option key={s} value={s} selected={s === v.status}>
              {t(`ordersUi.status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-from`}>{t('ordersUi.from')}</label>
        <input id={`${id}-from`} name="from" type="date" defaultValue={v.from} />
      </div>
      <div class="field">
        <label for={`${id}-to`}>{t('ordersUi.to')}</label>
        <input id={`${id}-to`} name="to" type="date" defaultValue={v.to} />
      </div>
      <button type="submit">{t('common.search')}</button>
    </form>
  );
}

export function StatusBadge(props: { status: string }) {
  const { t } = useI18n();
  const tone =
    props.status === 'success' ? 'good' : ['fail', 'timeout'].includes(props.status) ? 'bad' : 'muted';
  return <span class={`badge ${tone}`}>{t(`ordersUi.status.${props.status}`)}</span>;
}

/** Integer centavos as MXN; `—` when the API gave none. */
export function Money(props: { centavos: number | null | undefined }) {
  const { lang } = useI18n();
  return <>{typeof props.centavos === 'number' ? formatCentavos(props.centavos, lang) : '—'}</>;
}

/** Parts of a timeline that did not answer in time: the rest is shown, with this said. */
export function MissingParts(props: { missing: readonly string[] }) {
  const { t } = useI18n();
  if (props.missing.length === 0) return null;
  return (
    <Notice kind="info">
      {t('ordersUi.missing', { parts: props.missing.map((p) => t(`ordersUi.part.${p}`)).join(', ') })}
    </Notice>
  );
}

/**
 * The "Comprobante (CEP)" link of a paid order, a successful transfer or refund: Banxico's CEP page with the
 * payment's six facts filled in (the gateway builds it: docs/merchant-api.md "Proof of payment"), and the
 * channel's own CEP page when it gave one. Nothing before the payment has its facts.
 */
export function CepLink(props: { record: Readonly<Record<string, unknown>> }) {
  const { t } = useI18n();
  const link = typeof props.record['cepLink'] === 'string' ? props.record['cepLink'] : '';
  const channel = typeof props.record['cepUrl'] === 'string' ? props.record['cepUrl'] : '';
  if (!link && !channel) return null;
  return (
    <p class="cep">
      {link && (
        <a href={link} target="_blank" rel="noopener noreferrer">
          {t('ordersUi.cep')}
        </a>
      )}
      {link && channel && ' · '}
      {channel && (
        <a href={channel} target="_blank" rel="noopener noreferrer">
          {t('ordersUi.cepChannel')}
        </a>
      )}
    </p>
  );
}

/** A value a person copies for someone else (a claveRastreo for the payee): selectable, with a copy button. */
export function CopyText(props: { label: string; value: string; prominent?: boolean }) {
  const { t } = useI18n();
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <section class={props.prominent ? 'copy prominent' : 'copy'} aria-labelledby={`${id}-label`}>
      <span class="copy-label" id={`${id}-label`}>
        {props.label}
      </span>
      <code class="copy-value">{props.value}</code>
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(props.value);
            setCopied('yes');
          } catch {
            setCopied('no');
          }
        }}
      >
        {t('ordersUi.copy')}
        <span class="vh"> {props.label}</span>
      </button>
      <span role="status" class="copy-status">
        {copied === 'yes' ? t('ordersUi.copied') : copied === 'no' ? t('ordersUi.copyFailed') : ''}
      </span>
    </section>
  );
}

/** What the orders' and the transfers' tables have in common. */
interface ResultRow {
  mchNo?: string | undefined;
  mchOrderNo: string;
  amount: number;
  status: string;
  createdAt: string;
}

/** What tells one kind's table from the other's: its texts' keys, its number, its own columns. */
interface ResultKind<T> {
  label: string;
  numberLabel: string;
  path: 'orders' | 'transfers';
  number(row: T): string;
  /** Between the status and the creation time. */
  columns: readonly { label: string; cell(row: T): ComponentChildren }[];
}

/** Results as a table that scrolls inside itself on a phone; the number links to the row's page. */
function ResultsTable<T extends ResultRow>(props: {
  items: readonly T[];
  Link: Router['Link'];
  withMerchant: boolean;
  of: ResultKind<T>;
}) {
  const { t, lang } = useI18n();
  const { Link, of } = props;
  return (
    <TableRegion label={t(of.label)}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t(of.numberLabel)}</th>
            {props.withMerchant && <th scope="col">{t('ordersUi.mchNo')}</th>}
            <th scope="col">{t('ordersUi.mchOrderNo')}</th>
            <th scope="col" class="num">
              {t('ordersUi.amount')}
            </th>
            <th scope="col">{t('ordersUi.status')}</th>
            {of.columns.map((c) => (
              <th key={c.label} scope="col">
                {t(c.label)}
              </th>
            ))}
            <th scope="col">{t('ordersUi.createdAt')}</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((row) => {
            const no = of.number(row);
            return (
              <tr key={no}>
                <td class="nowrap">
                  <Link to={`${of.path}/${encodeURIComponent(no)}`}>{no}</Link>
                </td>
                {props.withMerchant && <td>{row.mchNo ?? '—'}</td>}
                <td>{row.mchOrderNo}</td>
                <td class="num nowrap">
                  <Money centavos={row.amount} />
                </td>
                <td>
                  <StatusBadge status={row.status} />
                </td>
                {of.columns.map((c) => (
                  <td key={c.label}>{c.cell(row)}</td>
                ))}
                <td class="nowrap">{formatDateTime(row.createdAt, lang)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

const ORDER_RESULTS: ResultKind<OrderSummary> = {
  label: 'ordersUi.list.orders',
  numberLabel: 'ordersUi.orderNo',
  path: 'orders',
  number: (o) => o.orderNo,
  columns: [
    { label: 'ordersUi.claveRastreo', cell: (o) => o.claveRastreo || '—' },
    { label: 'ordersUi.clabe', cell: (o) => o.clabe || '—' },
  ],
};

const TRANSFER_RESULTS: ResultKind<TransferSummary> = {
  label: 'ordersUi.list.transfers',
  numberLabel: 'ordersUi.transferNo',
  path: 'transfers',
  number: (x) => x.transferNo,
  columns: [
    {
      label: 'ordersUi.payee',
      cell: (x) => (
        <>
          {x.payeeName}
          <br />
          <code>{x.payeeAccount}</code>
        </>
      ),
    },
    { label: 'ordersUi.claveRastreo', cell: (x) => x.claveRastreo || '—' },
  ],
};

type ListProps =
  | { kind: 'orders'; load(query: Query): Promise<z.infer<typeof orderPage>> }
  | { kind: 'transfers'; load(query: Query): Promise<z.infer<typeof transferPage>> };

/**
 * The search form, the server's page of results and the pager, all kept in the page's address (`path`
 * below the app's base), so a reload or a shared link shows the same search.
 */
export function OrderSearchList(props: ListProps & { router: Router; path: string; withMerchant: boolean }) {
  const { t } = useI18n();
  const search = useOrderSearch(props.router, props.path);
  const list = useResource<z.infer<typeof orderPage> | z.infer<typeof transferPage>>(
    () => props.load(searchToApi(search.values, search.cursor, props.withMerchant)),
    [search.key],
  );
  const items = list.data?.items ?? [];
  return (
    <>
      <OrderSearchForm
        key={search.key}
        kind={props.kind}
        values={search.values}
        withMerchant={props.withMerchant}
        onSearch={(values) => search.go(values)}
      />
      {list.loading && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && items.length === 0 && <p>{t('common.none')}</p>}
      {items.length > 0 &&
        (props.kind === 'orders' ? (
          <ResultsTable
            of={ORDER_RESULTS}
            items={items as OrderSummary[]}
            Link={props.router.Link}
            withMerchant={props.withMerchant}
          />
        ) : (
          <ResultsTable
            of={TRANSFER_RESULTS}
            items={items as TransferSummary[]}
            Link={props.router.Link}
            withMerchant={props.withMerchant}
          />
        ))}
      <Pager
        next={list.data?.next}
        onNext={(cursor) => search.go(search.values, cursor)}
        onFirst={search.cursor ? () => search.go(search.values) : undefined}
      />
    </>
  );
}

/** One fact of a record (a dictionary key and its value), or nothing when the record has none. */
type Fact = readonly [label: string, value: ComponentChildren] | false | '' | null | undefined;

/** Facts as a description list, in the order given. */
function FactList(props: { facts: readonly Fact[] }) {
  const { t } = useI18n();
  return (
    <dl class="facts">
      {props.facts.map(
        (fact) =>
          fact && (
            <Fragment key={fact[0]}>
              <dt>{t(fact[0])}</dt>
              <dd>{fact[1]}</dd>
            </Fragment>
          ),
      )}
    </dl>
  );
}

/** What an order and a transfer both show first: status, merchant (console only), their number, title. */
function headFacts(
  r: { status: string; mchOrderNo: string; title?: string | null | undefined },
  merchant: ComponentChildren | undefined,
): Fact[] {
  return [
    ['ordersUi.status', <StatusBadge key="status" status={r.status} />],
    merchant !== undefined && ['ordersUi.mchNo', merchant],
    ['ordersUi.mchOrderNo', r.mchOrderNo],
    r.title && ['ordersUi.title', r.title],
  ];
}

/** And last: the app that made it and where its callbacks go. */
function tailFacts(r: { appId?: string | null | undefined; notifyUrl?: string | null | undefined }): Fact[] {
  return [
    r.appId && ['ordersUi.appId', r.appId],
    ['ordersUi.notifyUrl', r.notifyUrl ? <code>{r.notifyUrl}</code> : '—'],
  ];
}

/** An order's facts; `merchant` is what the console shows for its merchant (a link), absent on the dashboard. */
export function OrderFacts(props: { order: OrderDetail; merchant?: ComponentChildren }) {
  const { t, lang } = useI18n();
  const o = props.order;
  return (
    <FactList
      facts={[
        ...headFacts(o, props.merchant),
        ['ordersUi.amount', <Money key="amount" centavos={o.amount} />],
        ['ordersUi.fee', <Money key="fee" centavos={o.fee} />],
        ['ordersUi.realAmount', <Money key="realAmount" centavos={o.realAmount} />],
        ['ordersUi.clabe', <code key="clabe">{o.clabe || '—'}</code>],
        ['ordersUi.createdAt', formatDateTime(o.createdAt, lang)],
        ['ordersUi.payTime', formatDateTime(o.payTime, lang)],
        ['ordersUi.expiredTime', formatDateTime(o.expiredTime, lang)],
        ['ordersUi.settleStatus', o.settleStatus ? t(`ordersUi.settle.${o.settleStatus}`) : '—'],
        ...tailFacts(o),
      ]}
    />
  );
}

/** A transfer's facts; `merchant` as for OrderFacts. */
export function TransferFacts(props: { transfer: TransferDetail; merchant?: ComponentChildren }) {
  const { lang } = useI18n();
  const x = props.transfer;
  return (
    <FactList
      facts={[
        ...headFacts(x, props.merchant),
        x.reason && ['ordersUi.reason', x.reason],
        ['ordersUi.amount', <Money key="amount" centavos={x.amount} />],
        ['ordersUi.fee', <Money key="fee" centavos={x.fee} />],
        ['ordersUi.payee', x.payeeName],
        ['ordersUi.payeeAccount', <code key="payeeAccount">{x.payeeAccount}</code>],
        x.payeeBankName && ['ordersUi.payeeBank', x.payeeBankName],
        ['ordersUi.createdAt', formatDateTime(x.createdAt, lang)],
        ['ordersUi.finishedAt', formatDateTime(x.finishedAt, lang)],
        ...tailFacts(x),
      ]}
    />
  );
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** One localised sentence for a timeline event, from its kind and detail (its `summary` is for logs). */
export function describeEvent(
  event: TimelineEvent,
  t: (key: string, vars?: Record<string, string | number>) => string,
  lang: Lang,
): string {
  const d = event.detail ?? {};
  const money = (key: string) => (typeof d[key] === 'number' ? formatCentavos(d[key] as number, lang) : '');
  const amount = money('amount');
  const rastreo = text(d['claveRastreo']);
  const withRastreo = (sentence: string) =>
    rastreo ? `${sentence} ${t('ordersUi.ev.rastreo', { clave: rastreo })}` : sentence;
  const [head = '', rest = ''] = event.kind.split(/\.(.*)/s);
  if (head === 'status') {
    const from = text(d['from']) ?? text(d['fromStatus']);
    const to = t(`ordersUi.status.${rest}`);
    return from
      ? t('ordersUi.ev.statusFrom', { from: t(`ordersUi.status.${from}`), to })
      : t('ordersUi.ev.status', { to });
  }
  if (head === 'notice') {
    const status = t(`ordersUi.status.${rest}`);
    return withRastreo(
      t('ordersUi.ev.notice', { status: status === `ordersUi.status.${rest}` ? rest : status }),
    );
  }
  if (head === 'entry') {
    const what = t(`ordersUi.entry.${rest}`);
    const label = what === `ordersUi.entry.${rest}` ? rest : what;
    return amount
      ? t('ordersUi.ev.entryAmount', { what: label, amount })
      : t('ordersUi.ev.entry', { what: label });
  }
  if (head === 'callback') {
    const attempt = text(d['attempt']) ?? text(d['number']);
    const http = text(d['httpStatus']);
    const outcome = text(d['outcome']);
    const outcomeText = outcome ? t(`ordersUi.outcome.${outcome}`) : '';
    const shownOutcome = outcomeText === `ordersUi.outcome.${outcome}` ? (outcome ?? '') : outcomeText;
    if (rest === 'attempt')
      return t('ordersUi.ev.callbackAttempt', {
        n: attempt ?? '?',
        http: http ?? t('ordersUi.noAnswer'),
        outcome: shownOutcome || '—',
      });
    if (rest === 'queued') {
      const to = text(d['toStatus']);
      const state = text(d['status']);
      const stateText = state ? t(`ordersUi.delivery.${state}`) : '';
      return t('ordersUi.ev.callbackQueued', {
        to: to ? t(`ordersUi.status.${to}`) : '—',
        state: stateText === `ordersUi.delivery.${state}` ? (state ?? '') : stateText,
      });
    }
    const known = t(`ordersUi.ev.callback.${rest}`);
    if (known !== `ordersUi.ev.callback.${rest}`) return known;
  }
  // A fact without an amount has its own sentence, rather than one with a dash for the money.
  const plain = amount ? undefined : t(`ordersUi.evPlain.${event.kind}`);
  if (plain && plain !== `ordersUi.evPlain.${event.kind}`) return withRastreo(plain);
  const known = t(`ordersUi.ev.${event.kind}`, { amount: amount || '—' });
  if (known !== `ordersUi.ev.${event.kind}`) return withRastreo(known);
  return t('ordersUi.ev.other', { kind: event.kind });
}

/** Everything that happened to an order or transfer, oldest first, as an ordered list. */
export function Timeline(props: {
  /** The list's name for a screen reader (the heading above it, say). */
  label: string;
  events: readonly TimelineEvent[];
  /** An action beside an event (resend on a callback event). */
  action?: (event: TimelineEvent) => ComponentChildren;
}) {
  const { t, lang } = useI18n();
  if (props.events.length === 0) return <p>{t('ordersUi.noEvents')}</p>;
  return (
    <ol class="timeline" aria-label={props.label}>
      {props.events.map((event, i) => (
        <li key={`${event.at}-${i}`}>
          <time dateTime={event.at}>{formatDateTime(event.at, lang)}</time>{' '}
          <span class="badge muted">{t(`ordersUi.source.${event.source}`)}</span>{' '}
          <span class="what">{describeEvent(event, t, lang)}</span>
          {props.action?.(event)}
        </li>
      ))}
    </ol>
  );
}

/** The callback attempts of a timeline: time, HTTP status, outcome, and the delivery they belong to. */
export function callbackAttempts(events: readonly TimelineEvent[]) {
  return events
    .filter((e) => e.source === 'callback' && e.kind === 'callback.attempt')
    .map((e) => ({
      at: e.at,
      deliveryId: e.deliveryId ?? undefined,
      attempt: text(e.detail?.['attempt']) ?? text(e.detail?.['number']),
      httpStatus: text(e.detail?.['httpStatus']),
      outcome: text(e.detail?.['outcome']),
    }));
}

export const ordersUiMessages = defineDictionaries(
  {
    'ordersUi.list.orders': 'Órdenes encontradas',
    'ordersUi.list.transfers': 'Transferencias encontradas',
    'ordersUi.orderNo': 'Orden',
    'ordersUi.transferNo': 'Transferencia',
    'ordersUi.mchOrderNo': 'Número del comercio',
    'ordersUi.amount': 'Monto',
    'ordersUi.fee': 'Comisión',
    'ordersUi.realAmount': 'Neto para el comercio',
    'ordersUi.clabe': 'CLABE',
    'ordersUi.claveRastreo': 'Clave de rastreo',
    'ordersUi.cep': 'Comprobante (CEP)',
    'ordersUi.cepChannel': 'Comprobante (CEP) del canal',
    'ordersUi.createdAt': 'Creada',
    'ordersUi.payTime': 'Pagada',
    'ordersUi.finishedAt': 'Terminada',
    'ordersUi.expiredTime': 'Vence',
    'ordersUi.settleStatus': 'Liquidación',
    'ordersUi.title': 'Concepto',
    'ordersUi.reason': 'Motivo',
    'ordersUi.appId': 'App',
    'ordersUi.notifyUrl': 'URL de notificación',
    'ordersUi.payee': 'Beneficiario',
    'ordersUi.payeeAccount': 'Cuenta del beneficiario',
    'ordersUi.payeeBank': 'Banco del beneficiario',
    'ordersUi.search.orders': 'Buscar órdenes',
    'ordersUi.search.transfers': 'Buscar transferencias',
    'ordersUi.q': 'Número, clave de rastreo o CLABE',
    'ordersUi.qHint.orders': 'El número exacto de la orden o del comercio, la clave de rastreo o la CLABE.',
    'ordersUi.qHint.transfers':
      'El número exacto de la transferencia o del comercio, la clave de rastreo o la cuenta del beneficiario.',
    'ordersUi.mchNo': 'Comercio',
    'ordersUi.status': 'Estado',
    'ordersUi.anyStatus': 'Cualquiera',
    'ordersUi.from': 'Desde',
    'ordersUi.to': 'Hasta',
    'ordersUi.status.wait': 'En espera',
    'ordersUi.status.progress': 'En proceso',
    'ordersUi.status.success': 'Exitosa',
    'ordersUi.status.close': 'Cerrada',
    'ordersUi.status.cancel': 'Cancelada',
    'ordersUi.status.fail': 'Fallida',
    'ordersUi.status.timeout': 'Vencida',
    'ordersUi.missing':
      'No respondió a tiempo: {parts}. Se muestra lo demás; recarga la página para intentarlo de nuevo.',
    'ordersUi.part.channel': 'el canal',
    'ordersUi.part.ledger': 'el libro contable',
    'ordersUi.part.callbacks': 'las notificaciones',
    'ordersUi.copy': 'Copiar',
    'ordersUi.copied': 'Copiado.',
    'ordersUi.copyFailed': 'No se pudo copiar; selecciona el texto y cópialo.',
    'ordersUi.noEvents': 'Aún no hay eventos.',
    'ordersUi.noAnswer': 'sin respuesta',
    'ordersUi.source.order': 'Orden',
    'ordersUi.source.transfer': 'Transferencia',
    'ordersUi.source.channel': 'Canal',
    'ordersUi.source.ledger': 'Contabilidad',
    'ordersUi.source.callback': 'Notificación',
    'ordersUi.ev.status': 'El estado cambió a {to}.',
    'ordersUi.ev.statusFrom': 'El estado cambió de {from} a {to}.',
    'ordersUi.ev.entry': 'Asiento contable: {what}.',
    'ordersUi.ev.entryAmount': 'Asiento contable: {what}, {amount}.',
    'ordersUi.ev.callbackAttempt': 'Intento {n} de notificación al comercio: HTTP {http}, {outcome}.',
    'ordersUi.ev.callbackQueued': 'Notificación al comercio del cambio a {to}: {state}.',
    'ordersUi.ev.callback.skipped': 'Sin notificación: la orden no tiene URL de notificación.',
    'ordersUi.delivery.pending': 'pendiente',
    'ordersUi.delivery.succeeded': 'entregada',
    'ordersUi.delivery.failed': 'no entregada tras todos los intentos',
    'ordersUi.delivery.superseded': 'reemplazada por un cambio más nuevo',
    'ordersUi.delivery.skipped': 'sin URL',
    'ordersUi.ev.rastreo': 'Clave de rastreo {clave}.',
    'ordersUi.ev.order.created': 'Se creó la orden por {amount}.',
    'ordersUi.ev.transfer.created': 'Se creó la transferencia por {amount}.',
    'ordersUi.ev.account.opened': 'Se abrió la cuenta CLABE virtual para el pago.',
    'ordersUi.ev.account.paid': 'La cuenta CLABE virtual recibió el pago.',
    'ordersUi.ev.account.closed': 'Se cerró la cuenta CLABE virtual.',
    'ordersUi.ev.deposit.received': 'Llegó un depósito SPEI por {amount}.',
    'ordersUi.ev.deposit.accepted': 'Se aceptó un depósito SPEI por {amount}.',
    'ordersUi.ev.deposit.returned': 'Se devolvió un depósito SPEI por {amount}.',
    'ordersUi.ev.payout.submitted': 'Se envió el pago SPEI por {amount}.',
    'ordersUi.ev.payout.returned': 'El banco receptor devolvió el pago SPEI.',
    'ordersUi.ev.notice': 'El canal avisó: {status}.',
    'ordersUi.ev.other': 'Evento {kind}.',
    'ordersUi.evPlain.deposit.received': 'Llegó un depósito SPEI.',
    'ordersUi.evPlain.deposit.returned': 'Se devolvió un depósito SPEI.',
    'ordersUi.evPlain.payout.submitted': 'Se envió el pago SPEI.',
    'ordersUi.settle.not_settle': 'Pendiente de liquidar',
    'ordersUi.settle.settled': 'Liquidada',
    'ordersUi.entry.pay_in': 'cobro acreditado',
    'ordersUi.entry.settle': 'liquidación',
    'ordersUi.entry.transfer_freeze': 'saldo congelado para el pago',
    'ordersUi.entry.transfer_unfreeze': 'congelamiento liberado',
    'ordersUi.entry.transfer_out': 'cargo del pago',
    'ordersUi.entry.transfer_return': 'devolución acreditada',
    'ordersUi.entry.adjust': 'ajuste',
    'ordersUi.outcome.succeeded': 'aceptada',
    'ordersUi.outcome.failed': 'fallida',
    'ordersUi.outcome.in_flight': 'en curso',
    'ordersUi.outcome.abandoned': 'interrumpida',
  },
  {
    'ordersUi.list.orders': 'Orders found',
    'ordersUi.list.transfers': 'Transfers found',
    'ordersUi.orderNo': 'Order',
    'ordersUi.transferNo': 'Transfer',
    'ordersUi.mchOrderNo': "Merchant's number",
    'ordersUi.amount': 'Amount',
    'ordersUi.fee': 'Fee',
    'ordersUi.realAmount': 'Net to the merchant',
    'ordersUi.clabe': 'CLABE',
    'ordersUi.claveRastreo': 'Tracking key (clave de rastreo)',
    'ordersUi.cep': 'Comprobante (CEP)',
    'ordersUi.cepChannel': 'Comprobante (CEP) from the channel',
    'ordersUi.createdAt': 'Created',
    'ordersUi.payTime': 'Paid',
    'ordersUi.finishedAt': 'Finished',
    'ordersUi.expiredTime': 'Expires',
    'ordersUi.settleStatus': 'Settlement',
    'ordersUi.title': 'Title',
    'ordersUi.reason': 'Reason',
    'ordersUi.appId': 'App',
    'ordersUi.notifyUrl': 'Callback URL',
    'ordersUi.payee': 'Payee',
    'ordersUi.payeeAccount': "Payee's account",
    'ordersUi.payeeBank': "Payee's bank",
    'ordersUi.search.orders': 'Search orders',
    'ordersUi.search.transfers': 'Search transfers',
    'ordersUi.q': 'Number, tracking key or CLABE',
    'ordersUi.qHint.orders':
      "The exact order or merchant's number, the claveRastreo (tracking key) or the CLABE.",
    'ordersUi.qHint.transfers':
      "The exact transfer or merchant's number, the claveRastreo (tracking key) or the payee's account.",
    'ordersUi.mchNo': 'Merchant',
    'ordersUi.status': 'Status',
    'ordersUi.anyStatus': 'Any',
    'ordersUi.from': 'From',
    'ordersUi.to': 'To',
    'ordersUi.status.wait': 'Waiting',
    'ordersUi.status.progress': 'In progress',
    'ordersUi.status.success': 'Succeeded',
    'ordersUi.status.close': 'Closed',
    'ordersUi.status.cancel': 'Cancelled',
    'ordersUi.status.fail': 'Failed',
    'ordersUi.status.timeout': 'Expired',
    'ordersUi.missing': 'Did not answer in time: {parts}. The rest is shown; reload the page to try again.',
    'ordersUi.part.channel': 'the channel',
    'ordersUi.part.ledger': 'the ledger',
    'ordersUi.part.callbacks': 'the callbacks',
    'ordersUi.copy': 'Copy',
    'ordersUi.copied': 'Copied.',
    'ordersUi.copyFailed': 'Could not copy; select the text and copy it.',
    'ordersUi.noEvents': 'No events yet.',
    'ordersUi.noAnswer': 'no answer',
    'ordersUi.source.order': 'Order',
    'ordersUi.source.transfer': 'Transfer',
    'ordersUi.source.channel': 'Channel',
    'ordersUi.source.ledger': 'Ledger',
    'ordersUi.source.callback': 'Callback',
    'ordersUi.ev.status': 'The status changed to {to}.',
    'ordersUi.ev.statusFrom': 'The status changed from {from} to {to}.',
    'ordersUi.ev.entry': 'Ledger entry: {what}.',
    'ordersUi.ev.entryAmount': 'Ledger entry: {what}, {amount}.',
    'ordersUi.ev.callbackAttempt': 'Callback attempt {n} to the merchant: HTTP {http}, {outcome}.',
    'ordersUi.ev.callbackQueued': 'Callback to the merchant of the change to {to}: {state}.',
    'ordersUi.ev.callback.skipped': 'No callback: the order has no callback URL.',
    'ordersUi.delivery.pending': 'pending',
    'ordersUi.delivery.succeeded': 'delivered',
    'ordersUi.delivery.failed': 'not delivered after every attempt',
    'ordersUi.delivery.superseded': 'superseded by a newer change',
    'ordersUi.delivery.skipped': 'no URL',
    'ordersUi.ev.rastreo': 'Tracking key {clave}.',
    'ordersUi.ev.order.created': 'The order was created for {amount}.',
    'ordersUi.ev.transfer.created': 'The transfer was created for {amount}.',
    'ordersUi.ev.account.opened': 'The virtual CLABE account for the payment was opened.',
    'ordersUi.ev.account.paid': 'The virtual CLABE account received the payment.',
    'ordersUi.ev.account.closed': 'The virtual CLABE account was closed.',
    'ordersUi.ev.deposit.received': 'A SPEI deposit of {amount} arrived.',
    'ordersUi.ev.deposit.accepted': 'A SPEI deposit of {amount} was accepted.',
    'ordersUi.ev.deposit.returned': 'A SPEI deposit of {amount} was returned.',
    'ordersUi.ev.payout.submitted': 'The SPEI payout of {amount} was sent.',
    'ordersUi.ev.payout.returned': 'The receiving bank returned the SPEI payout.',
    'ordersUi.ev.notice': 'The channel reported: {status}.',
    'ordersUi.ev.other': 'Event {kind}.',
    'ordersUi.evPlain.deposit.received': 'A SPEI deposit arrived.',
    'ordersUi.evPlain.deposit.returned': 'A SPEI deposit was returned.',
    'ordersUi.evPlain.payout.submitted': 'The SPEI payout was sent.',
    'ordersUi.settle.not_settle': 'Not settled yet',
    'ordersUi.settle.settled': 'Settled',
    'ordersUi.entry.pay_in': 'pay-in credited',
    'ordersUi.entry.settle': 'settlement',
    'ordersUi.entry.transfer_freeze': 'balance frozen for the payout',
    'ordersUi.entry.transfer_unfreeze': 'freeze released',
    'ordersUi.entry.transfer_out': 'payout debited',
    'ordersUi.entry.transfer_return': 'return credited',
    'ordersUi.entry.adjust': 'adjustment',
    'ordersUi.outcome.succeeded': 'accepted',
    'ordersUi.outcome.failed': 'failed',
    'ordersUi.outcome.in_flight': 'in flight',
    'ordersUi.outcome.abandoned': 'interrupted',
  },
);
