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
  useResource,
} from '@agentpay/ui';
import { useState } from 'preact/hooks';
import type { ConsoleApi } from '../console-api';

/** One merchant: its terms, apps and keys; enable or disable it. */
export function MerchantPage(props: { api: ConsoleApi; mchNo: string; Link: Router['Link'] }) {
  const { t, lang } = useI18n();
  const merchant = useResource(() => props.api.merchant(props.mchNo), [props.mchNo]);
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
          <button type="button" class="secondary" onClick={toggle}>
            {m.status === 'enabled' ? t('merchant.disable') : t('merchant.enable')}
          </button>
          <h2>{t('merchant.keys')}</h2>
          <TableRegion label={t('merchant.keys')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('merchant.keyFingerprint')}</th>
                  <th scope="col">{t('merchant.keyStatus')}</th>
                  <th scope="col">{t('merchant.keyCreated')}</th>
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
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </>
      )}
    </Page>
  );
}
