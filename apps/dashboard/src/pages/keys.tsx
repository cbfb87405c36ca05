import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const keysMessages = defineDictionaries({ 'nav.keys': 'Llaves API' }, { 'nav.keys': 'API keys' });

export function KeysPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.keys')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
