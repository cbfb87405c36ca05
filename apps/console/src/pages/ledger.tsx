import {
  BalanceCards,
  defineDictionaries,
  ErrorNotice,
  formatCount,
  formatDateTime,
  formatMoney,
  Loading,
  mergeDictionaries,
  Notice,
  Page,
  Pager,
  type Router,
  StatementSection,
  statementUiMessages,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import type { ConsoleApi } from '../console-api';
import { type LedgerApi, ledgerApi, MAY } from './ledger.api';

// The books for operators (CONTRACT section 18 "ledger"): find a merchant and open its statement, run the
// ledger check, see the settlement runs and each merchant's last settlement, or settle what is due.
// Each section shows only if the person's roles may call its route.

export const ledgerMessages = mergeDictionaries(
  statementUiMessages,
  defineDictionaries(
    {
      'nav.ledger': 'Contabilidad',
      'ledger.title': 'Contabilidad',
      'ledger.balances': 'Saldos por comercio',
      'ledger.merchantNumber': 'Número de comercio',
      'ledger.merchantSearch': 'Comercio (número o nombre)',
      'ledger.open': 'Ver saldo y estado de cuenta',
      'ledger.found': 'Comercios encontrados',
      'ledger.merchant': 'Comercio',
      'ledger.name': 'Nombre',
      'ledger.check': 'Revisión de la contabilidad',
      'ledger.checkHint':
        'Comprueba que cada asiento cuadre, que cada saldo sea la suma de sus movimientos, que ningún saldo sea negativo y que cada orden y transferencia tenga sus asientos.',
      'ledger.runCheck': 'Revisar ahora',
      'ledger.checkOk': 'La contabilidad cuadra: {entries} asientos, {accounts} cuentas revisadas.',
      'ledger.checkBad': 'Se encontraron {n} problemas en {entries} asientos y {accounts} cuentas:',
      'ledger.settlements': 'Liquidaciones',
      'ledger.settlementsHint':
        'Cada corrida que liquidó algo o falló, la más reciente primero, y la última liquidación de cada comercio con lo que aún espera en pendiente.',
      'ledger.runs': 'Corridas de liquidación',
      'ledger.runStarted': 'Inicio',
      'ledger.runFinished': 'Fin',
      'ledger.runTrigger': 'Origen',
      'ledger.runUntil': 'Vencido hasta',
      'ledger.runSettled': 'Órdenes liquidadas',
      'ledger.runStatus': 'Estado',
      'ledger.trigger.sweep': 'Automática',
      'ledger.trigger.operator': 'Operador',
      'ledger.run.succeeded': 'Terminada',
      'ledger.run.failed': 'Falló',
      'ledger.settlementsList': 'Última liquidación por comercio',
      'ledger.lastSettled': 'Última liquidación',
      'ledger.lastOrder': 'Orden',
      'ledger.lastAmount': 'Monto liquidado',
      'ledger.never': 'Nunca',
      'ledger.runSettlement': 'Liquidar ahora lo vencido',
      'ledger.settled': 'Se liquidaron {n} órdenes vencidas hasta {until}.',
      'ledger.merchantTitle': 'Contabilidad de {mchNo}',
      'ledger.current': 'Saldo actual',
      'ledger.back': 'Volver a contabilidad',
    },
    {
      'nav.ledger': 'Ledger',
      'ledger.title': 'Ledger',
      'ledger.balances': 'Balances by merchant',
      'ledger.merchantNumber': 'Merchant number',
      'ledger.merchantSearch': 'Merchant (number or name)',
      'ledger.open': 'See balance and statement',
      'ledger.found': 'Merchants found',
      'ledger.merchant': 'Merchant',
      'ledger.name': 'Name',
      'ledger.check': 'Ledger check',
      'ledger.checkHint':
        'Proves that every entry balances, every balance is the sum of its postings, no balance is below zero, and every order and transfer has its entries.',
      'ledger.runCheck': 'Check now',
      'ledger.checkOk': 'The books balance: {entries} entries, {accounts} accounts checked.',
      'ledger.checkBad': '{n} problems found in {entries} entries and {accounts} accounts:',
      'ledger.settlements': 'Settlements',
      'ledger.settlementsHint':
        "Every run that settled something or failed, newest first, and each merchant's last settlement with what still waits in pending.",
      'ledger.runs': 'Settlement runs',
      'ledger.runStarted': 'Started',
      'ledger.runFinished': 'Finished',
      'ledger.runTrigger': 'Trigger',
      'ledger.runUntil': 'Due up to',
      'ledger.runSettled': 'Orders settled',
      'ledger.runStatus': 'Status',
      'ledger.trigger.sweep': 'Automatic',
      'ledger.trigger.operator': 'Operator',
      'ledger.run.succeeded': 'Finished',
      'ledger.run.failed': 'Failed',
      'ledger.settlementsList': 'Last settlement by merchant',
      'ledger.lastSettled': 'Last settlement',
      'ledger.lastOrder': 'Order',
      'ledger.lastAmount': 'Amount settled',
      'ledger.never': 'Never',
      'ledger.runSettlement': 'Settle what is due now',
      'ledger.settled': '{n} due orders settled up to {until}.',
      'ledger.merchantTitle': 'Ledger of {mchNo}',
      'ledger.current': 'Current balance',
      'ledger.back': 'Back to the ledger',
    },
  ),
);

const useLedger = (api: ConsoleApi) => useMemo(() => ledgerApi(api.client), [api]);

export function LedgerPage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const ledger = useLedger(props.api);
  return (
    <Page title={t('ledger.title')}>
      {may(MAY.statement) && (
        <BalancesSection api={props.api} router={props.router} canSearch={may(MAY.merchants)} />
      )}
      {may(MAY.check) && <CheckSection ledger={ledger} />}
      {may(MAY.settlements) && (
        <SettlementsSection
          ledger={ledger}
          router={props.router}
          canRun={may(MAY.runSettlement)}
          canListRuns={may(MAY.settlementRuns)}
        />
      )}
    </Page>
  );
}

/** A merchant's number opens its statement; a person who may list merchants searches them first. */
function BalancesSection(props: { api: ConsoleApi; router: Router; canSearch: boolean }) {
  const { t } = useI18n();
  const { router } = props;
  const [search, setSearch] = useState('');
  const found = useResource(
    () => (props.canSearch && search ? props.api.merchants({ search }) : Promise.resolve(undefined)),
    [search, props.canSearch],
  );
  const open = (mchNo: string) => router.navigate(`ledger/${encodeURIComponent(mchNo)}`);
  return (
    <section aria-labelledby="ledger-balances">
      <h2 id="ledger-balances">{t('ledger.balances')}</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          const value = String(new FormData(event.currentTarget).get('merchant') ?? '').trim();
          if (!value) return;
          if (props.canSearch) setSearch(value);
          else open(value);
        }}
      >
        <div class="field">
          <label for="ledger-merchant">
            {props.canSearch ? t('ledger.merchantSearch') : t('ledger.merchantNumber')}
          </label>
          <input id="ledger-merchant" name="merchant" type="search" maxLength={100} required />
        </div>
        <button type="submit">{props.canSearch ? t('common.search') : t('ledger.open')}</button>
      </form>
      {found.loading && search && <Loading />}
      {found.error !== undefined && <ErrorNotice error={found.error} />}
      {found.data && found.data.items.length === 0 && <p>{t('common.none')}</p>}
      {found.data && found.data.items.length > 0 && (
        <TableRegion label={t('ledger.found')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('ledger.merchant')}</th>
                <th scope="col">{t('ledger.name')}</th>
              </tr>
            </thead>
            <tbody>
              {found.data.items.map((m) => (
                <tr key={m.mchNo}>
                  <td>
                    <router.Link to={`ledger/${encodeURIComponent(m.mchNo)}`}>{m.mchNo}</router.Link>
                  </td>
                  <td>{m.name}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

type Check = Awaited<ReturnType<LedgerApi['check']>>;

function CheckSection(props: { ledger: LedgerApi }) {
  const { t, lang } = useI18n();
  const [state, setState] = useState<{ running: boolean; report?: Check; error?: unknown }>({
    running: false,
  });
  const run = async () => {
    setState({ running: true });
    try {
      setState({ running: false, report: await props.ledger.check() });
    } catch (error) {
      setState({ running: false, error });
    }
  };
  const report = state.report;
  const counts = report && {
    entries: formatCount(report.entries, lang),
    accounts: formatCount(report.accounts, lang),
    n: formatCount(report.problems.length, lang),
  };
  return (
    <section aria-labelledby="ledger-check">
      <h2 id="ledger-check">{t('ledger.check')}</h2>
      <p class="hint">{t('ledger.checkHint')}</p>
      <button type="button" onClick={run} disabled={state.running}>
        {t('ledger.runCheck')}
      </button>
      {state.running && <Loading />}
      {state.error !== undefined && <ErrorNotice error={state.error} />}
      {report && counts && report.ok && <Notice kind="ok">{t('ledger.checkOk', counts)}</Notice>}
      {report && counts && !report.ok && (
        <Notice kind="error">
          {t('ledger.checkBad', counts)}
          <ul>
            {report.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Notice>
      )}
    </section>
  );
}

function SettlementsSection(props: {
  ledger: LedgerApi;
  router: Router;
  canRun: boolean;
  canListRuns: boolean;
}) {
  const { t, lang } = useI18n();
  const { router } = props;
  const [cursor, setCursor] = useState('');
  const list = useResource(() => props.ledger.settlements(cursor), [cursor]);
  const [runsCursor, setRunsCursor] = useState('');
  const runs = useResource(
    () => (props.canListRuns ? props.ledger.settlementRuns(runsCursor) : Promise.resolve(undefined)),
    [runsCursor, props.canListRuns],
  );
  const [run, setRun] = useState<{ running: boolean; text?: string; error?: unknown }>({ running: false });
  const settle = async () => {
    setRun({ running: true });
    try {
      const answer = await props.ledger.runSettlement();
      const done = 'done' in answer ? answer.done : undefined;
      setRun({
        running: false,
        ...(done && { text: t('ledger.settled', { n: formatCount(done.settled, lang), until: done.until }) }),
      });
      list.reload();
      // The new run is the newest: back to the first page of runs.
      if (runsCursor) setRunsCursor('');
      else runs.reload();
    } catch (error) {
      setRun({ running: false, error });
    }
  };
  return (
    <section aria-labelledby="ledger-settlements">
      <h2 id="ledger-settlements">{t('ledger.settlements')}</h2>
      <p class="hint">{t('ledger.settlementsHint')}</p>
      {props.canRun && (
        <button type="button" onClick={settle} disabled={run.running}>
          {t('ledger.runSettlement')}
        </button>
      )}
      {run.text && <Notice kind="ok">{run.text}</Notice>}
      {run.error !== undefined && <ErrorNotice error={run.error} />}
      {props.canListRuns && (
        <>
          <h3>{t('ledger.runs')}</h3>
          {runs.loading && <Loading />}
          {runs.error !== undefined && <ErrorNotice error={runs.error} />}
          {runs.data && runs.data.items.length === 0 && <p>{t('common.none')}</p>}
          {runs.data && runs.data.items.length > 0 && (
            <TableRegion label={t('ledger.runs')}>
              <table class="roomy">
                <thead>
                  <tr>
                    <th scope="col">{t('ledger.runStarted')}</th>
                    <th scope="col">{t('ledger.runFinished')}</th>
                    <th scope="col">{t('ledger.runTrigger')}</th>
                    <th scope="col">{t('ledger.runUntil')}</th>
                    <th scope="col" class="num">
                      {t('ledger.runSettled')}
                    </th>
                    <th scope="col">{t('ledger.runStatus')}</th>
                  </tr>
                </thead>
                <tbody>
                  {runs.data.items.map((r) => (
                    <tr key={r.id}>
                      <td>{formatDateTime(r.startedAt, lang)}</td>
                      <td>{formatDateTime(r.finishedAt, lang)}</td>
                      <td>{t(`ledger.trigger.${r.trigger}`)}</td>
                      <td>{formatDateTime(r.until, lang)}</td>
                      <td class="num">{formatCount(r.settled, lang)}</td>
                      <td>
                        <span class={`badge ${r.status === 'succeeded' ? 'good' : 'bad'}`}>
                          {t(`ledger.run.${r.status}`)}
                        </span>
                        {r.error && <span class="hint"> {r.error}</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
          <Pager
            next={runs.data?.next}
            onNext={setRunsCursor}
            onFirst={runsCursor ? () => setRunsCursor('') : undefined}
          />
          <h3>{t('ledger.settlementsList')}</h3>
        </>
      )}
      {list.loading && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('ledger.settlementsList')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('ledger.merchant')}</th>
                <th scope="col" class="num">
                  {t('balance.available')}
                </th>
                <th scope="col" class="num">
                  {t('balance.pending')}
                </th>
                <th scope="col">{t('ledger.lastSettled')}</th>
                <th scope="col">{t('ledger.lastOrder')}</th>
                <th scope="col" class="num">
                  {t('ledger.lastAmount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((m) => (
                <tr key={m.mchNo}>
                  <td class="nowrap">
                    <router.Link to={`ledger/${encodeURIComponent(m.mchNo)}`}>{m.mchNo}</router.Link>
                  </td>
                  <td class="num">{formatMoney(m.available, lang)}</td>
                  <td class="num">{formatMoney(m.pending, lang)}</td>
                  <td>{m.lastSettlement ? formatDateTime(m.lastSettlement.at, lang) : t('ledger.never')}</td>
                  <td>{m.lastSettlement?.orderNo ?? '—'}</td>
                  <td class="num">{m.lastSettlement ? formatMoney(m.lastSettlement.amount, lang) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager next={list.data?.next} onNext={setCursor} onFirst={cursor ? () => setCursor('') : undefined} />
    </section>
  );
}

/** One merchant: its balance now, and its statement of a period, paged, with the period's CSV. */
export function LedgerMerchantPage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const { router } = props;
  const ledger = useLedger(props.api);
  const mchNo = props.params['mchNo'] ?? '';
  const { query } = router.useLocation();
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const cursor = query.get('cursor') ?? '';
  const canBalance = may(MAY.balance);
  const balance = useResource(
    () => (canBalance ? ledger.balance(mchNo) : Promise.resolve(undefined)),
    [mchNo, canBalance],
  );
  const statement = useResource(
    () => ledger.statement(mchNo, { from, to, cursor, limit: 50 }),
    [mchNo, from, to, cursor],
  );
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`ledger/${encodeURIComponent(mchNo)}${next.size ? `?${next}` : ''}`);
  };
  return (
    <Page title={t('ledger.merchantTitle', { mchNo })}>
      <p>
        <router.Link to="ledger">{t('ledger.back')}</router.Link>
      </p>
      {canBalance && (
        <section aria-labelledby="ledger-current">
          <h2 id="ledger-current">{t('ledger.current')}</h2>
          {balance.loading && <Loading />}
          {balance.error !== undefined && <ErrorNotice error={balance.error} />}
          {balance.data && <BalanceCards balance={balance.data} headingLevel={3} />}
        </section>
      )}
      <StatementSection
        headingId="ledger-statement"
        from={from}
        to={to}
        cursor={cursor}
        statement={statement}
        csvHref={may(MAY.statementCsv) ? (period) => ledger.statementCsvHref(mchNo, period) : undefined}
        go={go}
      />
    </Page>
  );
}
