import {
  defineDictionaries,
  ErrorNotice,
  LimitsTable,
  Loading,
  limitsUiMessages,
  mergeDictionaries,
  Page,
  useI18n,
  useResource,
} from '@agentpay/ui';
import { useMemo } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { limitsApi } from './limits.api';

// Limits (CONTRACT section 19): what the merchant may pay out per transfer, per day and per month, and take
// per pay order, with what today and this month used. Read only: the platform changes them on request.

export const limitsMessages = mergeDictionaries(
  limitsUiMessages,
  defineDictionaries(
    {
      'nav.limits': 'Límites',
      'limits.title': 'Límites',
      'limits.intro':
        'Una transferencia que pase un límite se rechaza con el código 40008 y el nombre del límite; una orden de cobro arriba de su límite, con 30006. No se crea ni se congela nada. Para cambiar un límite, pídelo a la plataforma.',
    },
    {
      'nav.limits': 'Limits',
      'limits.title': 'Limits',
      'limits.intro':
        "A transfer that would pass a limit is refused with code 40008 and the limit's name; a pay order above its limit, with 30006. Nothing is created or frozen. To change a limit, ask the platform.",
    },
  ),
);

export function LimitsPage(props: PageContext) {
  const { t } = useI18n();
  const api = useMemo(() => limitsApi(props.api.client), [props.api]);
  const answer = useResource(() => api.limits(), []);
  return (
    <Page title={t('limits.title')}>
      <p>{t('limits.intro')}</p>
      {answer.loading && !answer.data && <Loading />}
      {answer.error !== undefined && <ErrorNotice error={answer.error} />}
      {answer.data && <LimitsTable answer={answer.data} />}
    </Page>
  );
}
