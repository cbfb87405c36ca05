import {
  ErrorNotice,
  formatMoney,
  Loading,
  Page,
  Pager,
  type Router,
  TableRegion,
  useI18n,
  useResource,
} from '@agentpay/ui';
import { type ConsoleApi, DISCREPANCY_KINDS, DISCREPANCY_STATES } from '../console-api';

/** Discrepancies found by reconciliation runs, filtered and paged by the server. */
export function ReconciliationPage(props: { api: ConsoleApi; router: Router }) {
  const { t, lang } = useI18n();
  const { router } = props;
  const { query } = router.useLocation();
  const filters = {
    state: query.get('state') ?? 'open',
    kind: query.get('kind') ?? '',
    day: query.get('day') ?? '',
  };
  const after = query.get('after') ?? '';
  const list = useResource(
    () => props.api.discrepancies({ ...filters, after, limit: 50 }),
    [filters.state, filters.kind, filters.day, after],
  );
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`reconciliation${next.size ? `?${next}` : ''}`);
  };

  return (
    <Page title={t('recon.title')}>
      <form
        class="inline"
        aria-label={t('recon.filter')}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          go({
            state: String(data.get('state') ?? ''),
            kind: String(data.get('kind') ?? ''),
            day: String(data.get('day') ?? ''),
          });
        }}
      >
        <div class="field">
          <label for="recon-state">{t('recon.state')}</label>
          <select id="recon-state" name="state" defaultValue={filters.state}>
            {DISCREPANCY_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`recon.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="recon-kind">{t('recon.kind')}</label>
          <select id="recon-kind" name="kind" defaultValue={filters.kind}>
            <option value="">{t('recon.any')}</option>
            {DISCREPANCY_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="recon-day">{t('recon.day')}</label>
          <input id="recon-day" name="day" type="date" defaultValue={filters.day} />
        </div>
        <button type="submit">{t('recon.filter')}</button>
      </form>
      {list.loading && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('recon.list')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('recon.day')}</th>
                <th scope="col">{t('recon.route')}</th>
                <th scope="col">{t('recon.kind')}</th>
                <th scope="col" class="num">
                  {t('recon.amount')}
                </th>
                <th scope="col">{t('recon.order')}</th>
                <th scope="col">{t('recon.state')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((d) => (
                <tr key={d.id}>
                  <td>{d.day}</td>
                  <td>{d.routeId}</td>
                  <td>{d.kind}</td>
                  <td class="num">{formatMoney(d.amount, lang)}</td>
                  <td>{String(d.platform['orderNo'] ?? d.platform['transferNo'] ?? '—')}</td>
                  <td>{t(`recon.${d.state}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.next}
        onNext={(next) => go({ ...filters, after: next })}
        onFirst={after ? () => go(filters) : undefined}
      />
    </Page>
  );
}
