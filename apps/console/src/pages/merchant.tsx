import {
  ErrorNotice,
  formatBps,
  formatCentavos,
  formatDateTime,
  Loading,
  Notice,
  Page,
  type Router,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useId, useState } from 'preact/hooks';
import type { ConsoleApi } from '../console-api';
import { MerchantLimits } from './limits';
import { MerchantTermsForm } from './merchant-form';
import { MerchantPeople } from './people';

/** One merchant: its terms, apps and keys; enable or disable it. */
export function MerchantPage(props: { api: ConsoleApi; mchNo: string; Link: Router['Link'] }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const keyId = useId();
  const merchant = useResource(() => props.api.merchant(props.mchNo), [props.mchNo]);
  const routes = useResource(
    () => (may('GET /admin/routes') ? props.api.routes() : Promise.resolve({ routes: [] })),
    [may('GET /admin/routes')],
  );
  const [outcome, setOutcome] = useState<{ error?: unknown; ok?: string } | null>(null);
  const m = merchant.data;

  const toggle = async () => {
    if (!m) return;
    setOutcome(null);
    try {
      const answer = await props.api.setMerchantStatus(
        m.mchNo,
        m.status === 'enabled' ? 'disabled' : 'enabled',
      );
      setOutcome({
        ok: 'approval' in answer ? t('routes.approval', { id: answer.approval.id }) : t('routes.saved'),
      });
      merchant.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  const saved = (message: string) => {
    setOutcome({ ok: message });
    merchant.reload();
  };
  const changeKeys = async (body: { addPublicKey?: string; revokeKeyIds?: string[] }) => {
    if (!m) return;
    setOutcome(null);
    try {
      const answer = await props.api.updateMerchant(m.mchNo, body);
      saved('approval' in answer ? t('routes.approval', { id: answer.approval.id }) : t('routes.saved'));
    } catch (error) {
      setOutcome({ error });
    }
  };
  const mayEdit = may('PATCH /admin/merchants/:mchNo');
  const serving = (routes.data?.routes ?? []).filter(
    (r) => r.merchantScope !== 'list' || r.merchants.includes(props.mchNo),
  );

  return (
    <Page title={m ? `${m.name} (${m.mchNo})` : props.mchNo}>
      <p>
        <props.Link to="merchants">{t('merchant.back')}</props.Link>
      </p>
      {merchant.loading && !m && <Loading />}
      {merchant.error !== undefined && <ErrorNotice error={merchant.error} />}
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {m && (
        <>
          <dl class="facts">
            <dt>{t('merchant.status')}</dt>
            <dd>
              <span class={`badge ${m.status === 'enabled' ? 'good' : 'bad'}`}>
                {t(`status.${m.status}`)}
              </span>
            </dd>
            <dt>{t('merchant.fee')}</dt>
            <dd>
              {t('merchant.feeValue', {
                percent: formatBps(m.feeRate.percentBps, lang),
                fixed: formatCentavos(m.feeRate.fixedCentavos, lang),
              })}
            </dd>
            <dt>{t('merchant.settleType')}</dt>
            <dd>{m.settleType}</dd>
            <dt>{t('merchant.rateLimit')}</dt>
            <dd>
              {m.rateLimitPerS === null
                ? t('merchant.rateDefault')
                : t('merchant.perSecond', { n: m.rateLimitPerS })}
            </dd>
            <dt>{t('merchant.apps')}</dt>
            <dd>{m.appIds.join(', ') || '—'}</dd>
            <dt>{t('merchant.createdAt')}</dt>
            <dd>{formatDateTime(m.createdAt, lang)}</dd>
          </dl>
          {mayEdit && (
            <button type="button" class="secondary" onClick={toggle}>
              {m.status === 'enabled' ? t('merchant.disable') : t('merchant.enable')}
            </button>
          )}
          {mayEdit && <MerchantTermsForm api={props.api} m={m} onSaved={saved} />}
          <MerchantLimits api={props.api} mchNo={m.mchNo} />
          <h2>{t('merchant.keys')}</h2>
          <TableRegion label={t('merchant.keys')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('merchant.keyFingerprint')}</th>
                  <th scope="col">{t('merchant.keyStatus')}</th>
                  <th scope="col">{t('merchant.keyCreated')}</th>
                  {mayEdit && <th scope="col">{t('merchant.keyActions')}</th>}
                </tr>
              </thead>
              <tbody>
                {m.keys.map((k) => (
                  <tr key={k.id}>
                    <td>
                      <code>{k.fingerprint}</code>
                    </td>
                    <td>{t(`status.${k.status}`)}</td>
                    <td>{formatDateTime(k.createdAt, lang)}</td>
                    {mayEdit && (
                      <td>
                        {k.status === 'active' && (
                          <button
                            type="button"
                            class="secondary"
                            onClick={() => changeKeys({ revokeKeyIds: [k.id] })}
                          >
                            {t('merchant.revokeKey', { fingerprint: k.fingerprint.slice(0, 12) })}
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {mayEdit && (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                const pem = String(new FormData(event.currentTarget).get('publicKey') ?? '').trim();
                if (pem) void changeKeys({ addPublicKey: pem });
              }}
            >
              <div class="field">
                <label for={keyId}>{t('merchant.addKey')}</label>
                <textarea id={keyId} name="publicKey" rows={5} />
              </div>
              <button type="submit">{t('merchant.addKey')}</button>
            </form>
          )}
          {may('GET /admin/routes') && (
            <>
              <h2>{t('merchant.routes')}</h2>
              {routes.error !== undefined && <ErrorNotice error={routes.error} />}
              <ul>
                {serving.map((r) => (
                  <li key={r.id}>
                    <props.Link to="routes">{r.name}</props.Link> (
                    {r.merchantScope === 'list' ? t('merchant.routeBound') : t('merchant.routeOpen')})
                  </li>
                ))}
              </ul>
            </>
          )}
          <MerchantPeople api={props.api} mchNo={m.mchNo} />
        </>
      )}
    </Page>
  );
}
