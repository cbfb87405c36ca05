import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const securityMessages = defineDictionaries(
  { 'nav.security': 'Seguridad' },
  { 'nav.security': 'Security' },
);

export function SecurityPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.security')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
