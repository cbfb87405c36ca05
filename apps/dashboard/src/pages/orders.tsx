import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const ordersMessages = defineDictionaries(
  { 'nav.orders': 'Órdenes', 'nav.transfers': 'Transferencias' },
  { 'nav.orders': 'Orders', 'nav.transfers': 'Transfers' },
);

export function OrdersPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.orders')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}

export function OrderPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.orders')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}

export function TransfersPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.orders')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}

export function TransferPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.orders')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
