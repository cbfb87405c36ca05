import { defineDictionaries, Notice, Page, useI18n } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// Not built yet: a placeholder the owner of this area replaces.

export const peopleMessages = defineDictionaries({ 'nav.people': 'Personas' }, { 'nav.people': 'People' });

export function PeoplePage(_props: PageContext) {
  const { t } = useI18n();
  return (
    <Page title={t('nav.people')}>
      <Notice kind="info">{t('home.notYet')}</Notice>
    </Page>
  );
}
