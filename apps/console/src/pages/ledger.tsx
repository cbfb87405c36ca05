import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const ledgerMessages = defineDictionaries(
  { 'nav.ledger': 'Contabilidad' },
  { 'nav.ledger': 'Ledger' },
);

export function LedgerPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.ledger')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}

export function LedgerMerchantPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.ledger')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
