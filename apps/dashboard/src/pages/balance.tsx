import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const balanceMessages = defineDictionaries({ 'nav.balance': 'Saldo' }, { 'nav.balance': 'Balance' });

export function BalancePage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.balance')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}

export function HomePage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.balance')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
