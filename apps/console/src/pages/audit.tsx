import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const auditMessages = defineDictionaries({ 'nav.audit': 'Auditoría' }, { 'nav.audit': 'Audit log' });

export function AuditPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.audit')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
