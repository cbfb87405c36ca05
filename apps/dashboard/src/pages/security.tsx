import {
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  Loading,
  Notice,
  Page,
  Pager,
  TableRegion,
  useI18n,
  useResource,
} from '@agentpay/ui';
import type { PageContext } from '../app-pages';
import { securityApi } from './security.api';

// Security history (CONTRACT sections 17 and 18): the merchant's own audit entries, newest first, paged by the
// server. What the merchant's people did (sign-ins, keys, team, tokens) and what operators did to the merchant.

export const securityMessages = defineDictionaries(
  {
    'nav.security': 'Seguridad',
    'security.title': 'Historial de seguridad',
    'security.intro':
      'Todo lo que tu equipo hizo en el panel (inicios de sesión, llaves, equipo, tokens) y lo que la plataforma cambió de tu comercio, del más nuevo al más viejo. Nadie puede borrar ni cambiar estas entradas.',
    'security.notAllowed': 'Tu rol no permite ver el historial de seguridad.',
    'security.list': 'Entradas del historial',
    'security.when': 'Cuándo',
    'security.who': 'Quién',
    'security.what': 'Qué',
    'security.target': 'Sobre',
    'security.outcome': 'Resultado',
    'security.from': 'Dirección',
    'security.outcome.success': 'Hecho',
    'security.outcome.failure': 'Falló',
    'security.outcome.denied': 'Negado',
    'security.action.session.create': 'Inicio de sesión',
    'security.action.session.end': 'Cierre de sesión',
    'security.action.merchant_key.add': 'Llave agregada',
    'security.action.merchant_key.revoke': 'Llave revocada',
    'security.action.merchant_user.invite': 'Persona invitada',
    'security.action.merchant_user.update': 'Persona cambiada',
    'security.action.invitation.accept': 'Invitación aceptada',
    'security.action.invitation.confirm': 'Cuenta activada',
    'security.action.token.create': 'Token creado',
    'security.action.token.revoke': 'Token revocado',
    'security.action.audit.read': 'Historial consultado',
    'security.action.merchant.update': 'Comercio cambiado',
    'security.action.merchant.create': 'Comercio dado de alta',
  },
  {
    'nav.security': 'Security',
    'security.title': 'Security history',
    'security.intro':
      'Everything your team did in the dashboard (sign-ins, keys, team, tokens) and what the platform changed about your merchant, newest first. No one can delete or change these entries.',
    'security.notAllowed': 'Your role does not allow seeing the security history.',
    'security.list': 'History entries',
    'security.when': 'When',
    'security.who': 'Who',
    'security.what': 'What',
    'security.target': 'On',
    'security.outcome': 'Outcome',
    'security.from': 'Address',
    'security.outcome.success': 'Done',
    'security.outcome.failure': 'Failed',
    'security.outcome.denied': 'Denied',
    'security.action.session.create': 'Sign-in',
    'security.action.session.end': 'Sign-out',
    'security.action.merchant_key.add': 'Key added',
    'security.action.merchant_key.revoke': 'Key revoked',
    'security.action.merchant_user.invite': 'Person invited',
    'security.action.merchant_user.update': 'Person changed',
    'security.action.invitation.accept': 'Invitation accepted',
    'security.action.invitation.confirm': 'Account activated',
    'security.action.token.create': 'Token created',
    'security.action.token.revoke': 'Token revoked',
    'security.action.audit.read': 'History read',
    'security.action.merchant.update': 'Merchant changed',
    'security.action.merchant.create': 'Merchant created',
  },
);

export function SecurityPage(props: PageContext) {
  const { t, lang } = useI18n();
  const { router } = props;
  const { query } = router.useLocation();
  const cursor = query.get('cursor') ?? '';
  const api = securityApi(props.api.client);
  // Asked first, so a role without the history is told so rather than shown a refusal.
  const may = useResource(() => api.may(), []);
  const canRead = may.data?.includes('GET /dashboard/api/audit') ?? false;
  const list = useResource(
    async () => (canRead ? api.history(cursor || undefined) : undefined),
    [cursor, canRead],
  );
  const go = (next: string) =>
    router.navigate(`security${next ? `?cursor=${encodeURIComponent(next)}` : ''}`);
  // An action without a word of its own shows its name, as the audit log writes it.
  const action = (name: string) => {
    const key = `security.action.${name}`;
    const text = t(key);
    return text === key ? name : text;
  };

  return (
    <Page title={t('security.title')}>
      <p>{t('security.intro')}</p>
      {may.data && !canRead && <Notice kind="info">{t('security.notAllowed')}</Notice>}
      {may.error !== undefined && <ErrorNotice error={may.error} />}
      {(may.loading || list.loading) && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.entries.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.entries.length > 0 && (
        <TableRegion label={t('security.list')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('security.when')}</th>
                <th scope="col">{t('security.who')}</th>
                <th scope="col">{t('security.what')}</th>
                <th scope="col">{t('security.target')}</th>
                <th scope="col">{t('security.outcome')}</th>
                <th scope="col">{t('security.from')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.entries.map((e) => (
                <tr key={e.id}>
                  <td class="nowrap">{formatDateTime(e.at, lang)}</td>
                  <td>{e.actor.label}</td>
                  <td>{action(e.action)}</td>
                  <td class="long">
                    <code>{e.target}</code>
                  </td>
                  <td class="long">
                    <span class={`badge ${e.outcome === 'success' ? 'good' : 'bad'}`}>
                      {t(`security.outcome.${e.outcome}`)}
                    </span>
                    {e.reason && e.outcome !== 'success' && (
                      <>
                        <br />
                        <span class="hint">{e.reason}</span>
                      </>
                    )}
                  </td>
                  <td>{e.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.nextCursor ?? undefined}
        onNext={go}
        onFirst={cursor ? () => go('') : undefined}
      />
    </Page>
  );
}
