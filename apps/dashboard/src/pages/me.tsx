import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const meMessages = defineDictionaries({ 'nav.me': 'Mi cuenta' }, { 'nav.me': 'My account' });

export function MePage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.me')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
