import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const teamMessages = defineDictionaries({ 'nav.team': 'Equipo' }, { 'nav.team': 'Team' });

export function TeamPage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.team')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
