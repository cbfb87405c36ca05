import { ApiError, formatCount, Loading, Page, type Router, useI18n, useResource } from '@agentpay/ui';
import type { ConsoleApi } from '../console-api';

/**
 * Today at a glance: route health, open discrepancies, approvals waiting. (Pay-in and payout figures per
 * route and the callback backlog wait for their admin endpoints: docs/console.md "Not built yet".)
 */
export function HomePage(props: { api: ConsoleApi; Link: Router['Link'] }) {
  const { t, lang } = useI18n();
  const { Link } = props;
  const routes = useResource(() => props.api.routes(), []);
  const open = useResource(() => props.api.discrepancies({ state: 'open', limit: 100 }), []);
  const approvals = useResource(() => props.api.pendingApprovals(), []);

  const figure = (value: string | undefined, loading: boolean, error: unknown) => {
    if (loading) return <Loading />;
    if (error instanceof ApiError && error.status === 404) return <p>{t('home.notYet')}</p>;
    if (error || value === undefined) return <p>{t('error.generic')}</p>;
    return <p class="figure">{value}</p>;
  };
  const healthy = routes.data?.routes.filter((r) => r.enabled && (r.health?.state ?? 'closed') === 'closed');

  return (
    <Page title={t('home.title')}>
      <ul class="cards">
        <li class="card">
          <h2>
            <Link to="routes">{t('home.routes')}</Link>
          </h2>
          {figure(
            routes.data && healthy
              ? t('home.routesUp', { up: healthy.length, all: routes.data.routes.length })
              : undefined,
            routes.loading,
            routes.error,
          )}
        </li>
        <li class="card">
          <h2>
            <Link to="reconciliation">{t('home.discrepancies')}</Link>
          </h2>
          {figure(
            open.data
              ? `${formatCount(open.data.items.length, lang)}${open.data.next ? ` ${t('home.more')}` : ''}`
              : undefined,
            open.loading,
            open.error,
          )}
        </li>
        <li class="card">
          <h2>{t('home.approvals')}</h2>
          {figure(
            approvals.data ? formatCount(approvals.data.items.length, lang) : undefined,
            approvals.loading,
            approvals.error,
          )}
        </li>
      </ul>
    </Page>
  );
}
