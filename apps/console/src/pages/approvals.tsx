import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const approvalsMessages = defineDictionaries(
  { 'nav.approvals': 'Aprobaciones' },
  { 'nav.approvals': 'Approvals' },
);

export function ApprovalsPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.approvals')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
