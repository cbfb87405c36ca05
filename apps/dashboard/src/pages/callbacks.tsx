import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const callbacksMessages = defineDictionaries(
  { 'nav.callbacks': 'Notificaciones' },
  { 'nav.callbacks': 'Callbacks' },
);

export function CallbacksPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.callbacks')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
