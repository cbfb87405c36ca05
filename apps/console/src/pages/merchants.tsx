import {
  ErrorNotice,
  formatDateTime,
  Loading,
  Page,
  Pager,
  type Router,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import type { ConsoleApi } from '../console-api';

/** Merchants, searched and paged by the server (`GET /admin/merchants?search=&cursor=`). */
export function MerchantsPage(props: { api: ConsoleApi; router: Router }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const { router } = props;
  const { query } = router.useLocation();
  const search = query.get('search') ?? '';
  const cursor = query.get('cursor') ?? '';
  const list = useResource(() => props.api.merchants({ search, cursor }), [search, cursor]);
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`merchants${next.size ? `?${next}` : ''}`);
  };

  return (
    <Page
      title={t('merchants.title')}
      actions={
        may('POST /admin/merchants') ? (
          <router.Link to="merchants/new" class="button">
            {t('merchants.new')}
          </router.Link>
        ) : undefined
      }
    >
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          go({ search: String(new FormData(event.currentTarget).get('search') ?? '').trim() });
        }}
      >
        <div class="field">
          <label for="merchant-search">{t('merchants.search')}</label>
          <input id="merchant-search" name="search" type="search" defaultValue={search} maxLength={100} />
        </div>
        <button type="submit">{t('common.search')}</button>
      </form>
      {list.loading && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('merchants.list')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('merchant.mchNo')}</th>
                <th scope="col">{t('merchant.name')}</th>
                <th scope="col">{t('merchant.status')}</th>
                <th scope="col">{t('merchant.settleType')}</th>
                <th scope="col">{t('merchant.createdAt')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((m) => (
                <tr key={m.mchNo}>
                  <td>
                    <router.Link to={`merchants/${encodeURIComponent(m.mchNo)}`}>{m.mchNo}</router.Link>
                  </td>
                  <td>{m.name}</td>
                  <td>{t(`status.${m.status}`)}</td>
                  <td>{m.settleType}</td>
                  <td>{formatDateTime(m.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.next}
        onNext={(next) => go({ search, cursor: next })}
        onFirst={cursor ? () => go({ search }) : undefined}
      />
    </Page>
  );
}
