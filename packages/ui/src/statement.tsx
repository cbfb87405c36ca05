import * as z from 'zod/mini';
import { ErrorNotice, Loading, Pager, TableRegion } from './components';
import { formatMoney } from './format';
import { defineDictionaries, useI18n } from './i18n';
import type { Resource } from './use-resource';

// A merchant's balance and statement, as the console (`/admin/merchants/:mchNo/…`) and the dashboard
// (`/dashboard/api/…`) both show them (docs/console.md "Ledger"): the answers' schemas, the three parts as
// cards, the period form, and the statement's table. Amounts come from the API in pesos and are only
// formatted here.

const pesos = z.number();

export const balanceParts = z.object({
  currency: z.optional(z.string()),
  available: pesos,
  pending: pesos,
  frozen: pesos,
});
export type BalanceParts = z.infer<typeof balanceParts>;

export const statementRecord = z.object({
  recordNo: z.string(),
  type: z.string(),
  orderNo: z.optional(z.string()),
  bizOrderNo: z.optional(z.string()),
  transferNo: z.optional(z.string()),
  bizTransferNo: z.optional(z.string()),
  amount: pesos,
  fee: pesos,
  availableChange: pesos,
  pendingChange: pesos,
  frozenChange: pesos,
  availableBalance: pesos,
  pendingBalance: pesos,
  frozenBalance: pesos,
  remark: z.optional(z.string()),
  /** Platform wall-clock time (Mexico City), `yyyy-MM-dd HH:mm:ss`. */
  createTime: z.optional(z.string()),
});
export type StatementRecord = z.infer<typeof statementRecord>;

export const statementPage = z.object({
  from: z.string(),
  to: z.string(),
  opening: balanceParts,
  closing: balanceParts,
  items: z.array(statementRecord),
  next: z.optional(z.string()),
});
export type StatementPage = z.infer<typeof statementPage>;

/** The record types of the ledger (docs/merchant-api.md "Balance and statement"). */
const RECORD_TYPES = [
  'pay_in',
  'settle',
  'transfer_freeze',
  'transfer_unfreeze',
  'transfer_out',
  'transfer_return',
  'adjust',
] as const;

export const statementUiMessages = defineDictionaries(
  {
    'balance.available': 'Disponible',
    'balance.pending': 'Pendiente de liquidar',
    'balance.frozen': 'Congelado',
    'balance.parts': 'Saldo',
    'statement.title': 'Estado de cuenta',
    'statement.period': 'Periodo',
    'statement.from': 'Desde',
    'statement.to': 'Hasta',
    'statement.show': 'Ver periodo',
    'statement.opening': 'Saldo inicial',
    'statement.closing': 'Saldo final',
    'statement.list': 'Movimientos del periodo',
    'statement.time': 'Fecha',
    'statement.type': 'Tipo',
    'statement.reference': 'Referencia',
    'statement.amount': 'Monto',
    'statement.fee': 'Comisión',
    'statement.availableChange': 'Cambio disponible',
    'statement.pendingChange': 'Cambio pendiente',
    'statement.frozenChange': 'Cambio congelado',
    'statement.availableBalance': 'Saldo disponible',
    'statement.pendingBalance': 'Saldo pendiente',
    'statement.frozenBalance': 'Saldo congelado',
    'statement.none': 'Sin movimientos en este periodo.',
    'statement.csv': 'Descargar CSV del periodo',
    'record.pay_in': 'Cobro',
    'record.settle': 'Liquidación',
    'record.transfer_freeze': 'Retención por transferencia',
    'record.transfer_unfreeze': 'Liberación de retención',
    'record.transfer_out': 'Transferencia enviada',
    'record.transfer_return': 'Transferencia devuelta',
    'record.adjust': 'Ajuste',
  },
  {
    'balance.available': 'Available',
    'balance.pending': 'Pending settlement',
    'balance.frozen': 'Frozen',
    'balance.parts': 'Balance',
    'statement.title': 'Statement',
    'statement.period': 'Period',
    'statement.from': 'From',
    'statement.to': 'To',
    'statement.show': 'Show period',
    'statement.opening': 'Opening balance',
    'statement.closing': 'Closing balance',
    'statement.list': "The period's entries",
    'statement.time': 'Date',
    'statement.type': 'Type',
    'statement.reference': 'Reference',
    'statement.amount': 'Amount',
    'statement.fee': 'Fee',
    'statement.availableChange': 'Available change',
    'statement.pendingChange': 'Pending change',
    'statement.frozenChange': 'Frozen change',
    'statement.availableBalance': 'Available balance',
    'statement.pendingBalance': 'Pending balance',
    'statement.frozenBalance': 'Frozen balance',
    'statement.none': 'No entries in this period.',
    'statement.csv': "Download the period's CSV",
    'record.pay_in': 'Pay-in',
    'record.settle': 'Settlement',
    'record.transfer_freeze': 'Held for a transfer',
    'record.transfer_unfreeze': 'Hold released',
    'record.transfer_out': 'Transfer sent',
    'record.transfer_return': 'Transfer returned',
    'record.adjust': 'Adjustment',
  },
);

/** The three parts as cards, each with its name as a heading (level 2 by default). */
export function BalanceCards(props: { balance: BalanceParts; headingLevel?: 2 | 3 }) {
  const { t, lang } = useI18n();
  const H = props.headingLevel === 3 ? 'h3' : 'h2';
  const parts = [
    ['balance.available', props.balance.available],
    ['balance.pending', props.balance.pending],
    ['balance.frozen', props.balance.frozen],
  ] as const;
  return (
    <ul class="cards">
      {parts.map(([key, value]) => (
        <li class="card" key={key}>
          <H>{t(key)}</H>
          <p class="figure" data-part={key.slice('balance.'.length)}>
            {formatMoney(value, lang)}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** The period's days, submitted as `from` and `to` (yyyy-MM-dd). */
export function PeriodForm(props: { from: string; to: string; onSubmit(from: string, to: string): void }) {
  const { t } = useI18n();
  return (
    <form
      class="inline"
      aria-label={t('statement.period')}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        props.onSubmit(String(data.get('from') ?? ''), String(data.get('to') ?? ''));
      }}
    >
      <div class="field">
        <label for="statement-from">{t('statement.from')}</label>
        <input
          id="statement-from"
          name="from"
          type="date"
          required
          defaultValue={props.from}
          key={props.from}
        />
      </div>
      <div class="field">
        <label for="statement-to">{t('statement.to')}</label>
        <input id="statement-to" name="to" type="date" required defaultValue={props.to} key={props.to} />
      </div>
      <button type="submit">{t('statement.show')}</button>
    </form>
  );
}

const typeLabel = (t: (key: string) => string, type: string) =>
  (RECORD_TYPES as readonly string[]).includes(type) ? t(`record.${type}`) : type;

/** The merchant's own reference first (bizOrderNo, bizTransferNo), then the platform's, then a remark. */
const referenceOf = (r: StatementRecord) =>
  [r.bizOrderNo ?? r.bizTransferNo, r.orderNo ?? r.transferNo, r.remark].filter(Boolean).join(' · ') || '—';

/** The opening and closing balances of the page's period, then its entries, paged by the server. */
export function StatementTable(props: {
  page: StatementPage;
  onNext(cursor: string): void;
  onFirst?: (() => void) | undefined;
}) {
  const { t, lang } = useI18n();
  const { page } = props;
  const money = (value: number) => formatMoney(value, lang);
  return (
    <>
      <dl class="facts">
        <dt>{t('statement.period')}</dt>
        <dd>
          {page.from} – {page.to}
        </dd>
        <dt>{t('statement.opening')}</dt>
        <dd data-balance="opening">
          {t('balance.available')} {money(page.opening.available)} · {t('balance.pending')}{' '}
          {money(page.opening.pending)} · {t('balance.frozen')} {money(page.opening.frozen)}
        </dd>
        <dt>{t('statement.closing')}</dt>
        <dd data-balance="closing">
          {t('balance.available')} {money(page.closing.available)} · {t('balance.pending')}{' '}
          {money(page.closing.pending)} · {t('balance.frozen')} {money(page.closing.frozen)}
        </dd>
      </dl>
      {page.items.length === 0 ? (
        <p>{t('statement.none')}</p>
      ) : (
        <TableRegion label={t('statement.list')}>
          <table class="statement">
            <thead>
              <tr>
                <th scope="col">{t('statement.time')}</th>
                <th scope="col">{t('statement.type')}</th>
                <th scope="col">{t('statement.reference')}</th>
                <th scope="col" class="num">
                  {t('statement.amount')}
                </th>
                <th scope="col" class="num">
                  {t('statement.fee')}
                </th>
                <th scope="col" class="num">
                  {t('statement.availableChange')}
                </th>
                <th scope="col" class="num">
                  {t('statement.pendingChange')}
                </th>
                <th scope="col" class="num">
                  {t('statement.frozenChange')}
                </th>
                <th scope="col" class="num">
                  {t('statement.availableBalance')}
                </th>
                <th scope="col" class="num">
                  {t('statement.pendingBalance')}
                </th>
                <th scope="col" class="num">
                  {t('statement.frozenBalance')}
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((r) => (
                <tr key={r.recordNo}>
                  <td>{r.createTime ?? '—'}</td>
                  <td>{typeLabel(t, r.type)}</td>
                  <td>{referenceOf(r)}</td>
                  <td class="num">{money(r.amount)}</td>
                  <td class="num">{money(r.fee)}</td>
                  <td class="num">{money(r.availableChange)}</td>
                  <td class="num">{money(r.pendingChange)}</td>
                  <td class="num">{money(r.frozenChange)}</td>
                  <td class="num">{money(r.availableBalance)}</td>
                  <td class="num">{money(r.pendingBalance)}</td>
                  <td class="num">{money(r.frozenBalance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager next={page.next} onNext={props.onNext} onFirst={props.onFirst} />
    </>
  );
}

/**
 * A statement as both apps show it: the heading, the period form, the CSV link (only with `csvHref`: the
 * person may export), and the page's table. `go` moves to another period or page (`from`, `to` and `cursor`
 * live in the page's address).
 */
export function StatementSection(props: {
  headingId: string;
  from: string;
  to: string;
  cursor: string;
  statement: Resource<StatementPage>;
  csvHref: ((period: { from: string; to: string }) => string) | undefined;
  go(params: { from: string; to: string; cursor?: string }): void;
}) {
  const { t } = useI18n();
  const { statement, go } = props;
  const page = statement.data;
  return (
    <section aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{t('statement.title')}</h2>
      <PeriodForm
        from={page?.from ?? props.from}
        to={page?.to ?? props.to}
        onSubmit={(from, to) => go({ from, to })}
      />
      {page && props.csvHref && (
        <p>
          <a class="button" href={props.csvHref({ from: page.from, to: page.to })} download>
            {t('statement.csv')}
          </a>
        </p>
      )}
      {statement.loading && <Loading />}
      {statement.error !== undefined && <ErrorNotice error={statement.error} />}
      {page && (
        <StatementTable
          page={page}
          onNext={(next) => go({ from: page.from, to: page.to, cursor: next })}
          onFirst={props.cursor ? () => go({ from: page.from, to: page.to }) : undefined}
        />
      )}
    </section>
  );
}
