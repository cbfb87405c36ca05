import {
  ErrorNotice,
  formatCount,
  Loading,
  Notice,
  Page,
  type PendingApproval,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useState } from 'preact/hooks';
import type { ConsoleApi, Route } from '../console-api';

/** Routes with their breaker state; enable, disable, change the weight (some changes go to four eyes). */
export function RoutesPage(props: { api: ConsoleApi }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const routes = useResource(() => props.api.routes(), []);
  const [outcome, setOutcome] = useState<{ error?: unknown; ok?: string } | null>(null);

  const act = async (work: () => Promise<{ done: unknown } | { approval: PendingApproval }>) => {
    setOutcome(null);
    try {
      const answer = await work();
      setOutcome({
        ok: 'approval' in answer ? t('routes.approval', { id: answer.approval.id }) : t('routes.saved'),
      });
      routes.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  const healthBadge = (route: Route) => {
    const state = route.health?.state ?? 'closed';
    return <span class={`badge ${state === 'closed' ? 'good' : 'bad'}`}>{t(`health.${state}`)}</span>;
  };

  return (
    <Page title={t('routes.title')}>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {routes.loading && !routes.data && <Loading />}
      {routes.error !== undefined && <ErrorNotice error={routes.error} />}
      {routes.data && (
        <TableRegion label={t('routes.list')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('routes.name')}</th>
                <th scope="col">{t('routes.adapter')}</th>
                <th scope="col">{t('routes.enabled')}</th>
                <th scope="col">{t('routes.health')}</th>
                <th scope="col" class="num">
                  {t('routes.failures')}
                </th>
                <th scope="col">{t('routes.weight')}</th>
                <th scope="col">{t('routes.merchants')}</th>
              </tr>
            </thead>
            <tbody>
              {routes.data.routes.map((route) => (
                <tr key={route.id}>
                  <th scope="row">
                    {route.name}
                    <br />
                    <code>{route.id}</code>
                  </th>
                  <td>{route.adapter}</td>
                  <td>
                    <span class={`badge ${route.enabled ? 'good' : 'muted'}`}>
                      {route.enabled ? t('yes') : t('no')}
                    </span>{' '}
                    {may(`POST /admin/routes/:id/${route.enabled ? 'disable' : 'enable'}`) && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => act(() => props.api.setRouteEnabled(route.id, !route.enabled))}
                      >
                        {route.enabled ? t('routes.disableShort') : t('routes.enableShort')}
                        <span class="vh"> {route.name}</span>
                      </button>
                    )}
                  </td>
                  <td>{healthBadge(route)}</td>
                  <td class="num">{formatCount(route.health?.recentFailures ?? 0, lang)}</td>
                  <td>
                    {!may('PATCH /admin/routes/:id') && formatCount(route.weight, lang)}
                    {may('PATCH /admin/routes/:id') && (
                      <form
                        class="inline"
                        onSubmit={(event) => {
                          event.preventDefault();
                          const weight = Number(new FormData(event.currentTarget).get('weight'));
                          if (Number.isInteger(weight) && weight >= 0)
                            void act(() => props.api.setRouteWeight(route.id, weight));
                        }}
                      >
                        <input
                          name="weight"
                          type="number"
                          min={0}
                          max={1_000_000}
                          step={1}
                          defaultValue={String(route.weight)}
                          aria-label={t('routes.weightOf', { name: route.name })}
                          class="short"
                        />
                        <button type="submit" class="secondary">
                          {t('common.save')}
                        </button>
                      </form>
                    )}
                  </td>
                  <td>
                    {route.merchantScope === 'all' ? t('routes.allMerchants') : route.merchants.join(', ')}
                    {route.merchantScope === 'list' && may('POST /admin/routes/:id/merchants/:mchNo') && (
                      <form
                        class="inline"
                        onSubmit={(event) => {
                          event.preventDefault();
                          const mchNo = String(new FormData(event.currentTarget).get('mchNo') ?? '').trim();
                          if (mchNo) void act(() => props.api.bindRouteMerchant(route.id, mchNo));
                        }}
                      >
                        <input
                          name="mchNo"
                          maxLength={32}
                          aria-label={t('routes.bindTo', { name: route.name })}
                          class="short"
                        />
                        <button type="submit" class="secondary">
                          {t('routes.bind')}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Page>
  );
}
