import {
  BalanceCards,
  defineDictionaries,
  ErrorNotice,
  Loading,
  mergeDictionaries,
  Page,
  StatementSection,
  statementUiMessages,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useMemo } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { balanceApi, MAY } from './balance.api';

// The merchant's money (CONTRACT section 18 "balance and statement with CSV export"): the home page's
// summary, and the balance page with the statement of a period, paged by the server, and its CSV for the
// roles that may export it.

export const balanceMessages = mergeDictionaries(
  statementUiMessages,
  defineDictionaries(
    {
      'nav.balance': 'Saldo',
      'home.title': 'Inicio',
      'home.balance': 'Tu saldo',
      'home.goBalance': 'Ver saldo y estado de cuenta',
      'home.goOrders': 'Ver órdenes de pago',
      'home.goTransfers': 'Ver transferencias',
      'home.links': 'Accesos',
      'balance.title': 'Saldo y estado de cuenta',
      'balance.now': 'Saldo actual',
    },
    {
      'nav.balance': 'Balance',
      'home.title': 'Home',
      'home.balance': 'Your balance',
      'home.goBalance': 'See balance and statement',
      'home.goOrders': 'See pay orders',
      'home.goTransfers': 'See transfers',
      'home.links': 'Shortcuts',
      'balance.title': 'Balance and statement',
      'balance.now': 'Current balance',
    },
  ),
);

/** After sign-in: the balance now, and where to go next. */
export function HomePage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const api = useMemo(() => balanceApi(props.api.client), [props.api]);
  const canBalance = may(MAY.balance);
  const balance = useResource(() => (canBalance ? api.balance() : Promise.resolve(undefined)), [canBalance]);
  const { Link } = props.router;
  return (
    <Page title={t('home.title')}>
      {canBalance && (
        <section aria-labelledby="home-balance">
          <h2 id="home-balance">{t('home.balance')}</h2>
          {balance.loading && <Loading />}
          {balance.error !== undefined && <ErrorNotice error={balance.error} />}
          {balance.data && <BalanceCards balance={balance.data} headingLevel={3} />}
        </section>
      )}
      <nav aria-labelledby="home-links">
        <h2 id="home-links">{t('home.links')}</h2>
        <ul>
          {canBalance && (
            <li>
              <Link to="balance">{t('home.goBalance')}</Link>
            </li>
          )}
          <li>
            <Link to="orders">{t('home.goOrders')}</Link>
          </li>
          <li>
            <Link to="transfers">{t('home.goTransfers')}</Link>
          </li>
        </ul>
      </nav>
    </Page>
  );
}

/** The balance now, and the statement of a period (this month by default), paged, with its CSV. */
export function BalancePage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const { router } = props;
  const api = useMemo(() => balanceApi(props.api.client), [props.api]);
  const { query } = router.useLocation();
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const cursor = query.get('cursor') ?? '';
  const balance = useResource(() => api.balance(), []);
  const statement = useResource(() => api.statement({ from, to, cursor, limit: 50 }), [from, to, cursor]);
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`balance${next.size ? `?${next}` : ''}`);
  };
  return (
    <Page title={t('balance.title')}>
      <section aria-labelledby="balance-now">
        <h2 id="balance-now">{t('balance.now')}</h2>
        {balance.loading && <Loading />}
        {balance.error !== undefined && <ErrorNotice error={balance.error} />}
        {balance.data && <BalanceCards balance={balance.data} headingLevel={3} />}
      </section>
      <StatementSection
        headingId="balance-statement"
        from={from}
        to={to}
        cursor={cursor}
        statement={statement}
        csvHref={may(MAY.statementCsv) ? (period) => api.statementCsvHref(period) : undefined}
        go={go}
      />
    </Page>
  );
}
