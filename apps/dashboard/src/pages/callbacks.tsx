import {
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  Loading,
  Page,
  Pager,
  TableRegion,
  useI18n,
  useResource,
} from '@agentpay/ui';
import type { PageContext } from '../app-pages';
import { callbacksApi } from './callbacks.api';

// Callbacks (CONTRACT sections 9 and 18): there is no setting to change here today. A callback goes to the
// `notifyUrl` the merchant sends with each order or transfer, so the page says so, how a callback counts as
// received and how it is retried, and lists the merchant's recent failing callbacks, paged by the server.

export const callbacksMessages = defineDictionaries(
  {
    'nav.callbacks': 'Notificaciones',
    'callbacks.title': 'Notificaciones (callbacks)',
    'callbacks.how': 'Cómo funcionan',
    'callbacks.where':
      'Te avisamos de cada cambio de estado de una orden o una transferencia con un POST a la URL que envías en «notifyUrl» al crearla. Es una URL por orden: no hay una URL fija de la cuenta que configurar aquí. Si una orden no trae «notifyUrl», no enviamos notificaciones de ella.',
    'callbacks.signed':
      'Cada notificación va firmada con la llave de la plataforma: verifícala con la llave pública que descargas en «Llaves API».',
    'callbacks.success':
      'Cuenta como recibida cuando tu servidor responde HTTP 2xx con el texto SUCCESS en un máximo de 15 segundos.',
    'callbacks.retries':
      'Si no, la reintentamos hasta 16 veces en unas 24 horas (15 s, 15 s, 30 s, 1 min, 3 min, 10 min, … hasta 6 h). Un cambio de estado más nuevo de la misma orden reemplaza al pendiente.',
    'callbacks.failures': 'Notificaciones con fallas recientes',
    'callbacks.failuresHelp':
      'Las que no recibiste en su último intento, de la más nueva a la más vieja. Desaparecen de aquí cuando un reintento llega bien.',
    'callbacks.list': 'Notificaciones con fallas',
    'callbacks.created': 'Creada',
    'callbacks.order': 'Orden o transferencia',
    'callbacks.kind.pay': 'Cobro',
    'callbacks.kind.transfer': 'Transferencia',
    'callbacks.toStatus': 'Estado notificado',
    'callbacks.url': 'URL',
    'callbacks.attempts': 'Intentos',
    'callbacks.last': 'Última respuesta',
    'callbacks.state': 'Situación',
    'callbacks.retrying': 'Se reintentará {at}',
    'callbacks.retryingSoon': 'Reintento en curso',
    'callbacks.gaveUp': 'Sin más reintentos',
    'callbacks.none': 'Ninguna notificación falló recientemente.',
  },
  {
    'nav.callbacks': 'Callbacks',
    'callbacks.title': 'Callbacks',
    'callbacks.how': 'How they work',
    'callbacks.where':
      'We tell you of every status change of an order or a transfer with a POST to the URL you send as “notifyUrl” when you create it. It is one URL per order: there is no account-wide URL to set here. An order without “notifyUrl” gets no callbacks.',
    'callbacks.signed':
      'Every callback is signed with the platform key: verify it with the public key you download under “API keys”.',
    'callbacks.success':
      'It counts as received when your server answers HTTP 2xx with the text SUCCESS within 15 seconds.',
    'callbacks.retries':
      'Otherwise we retry it up to 16 times over about 24 hours (15 s, 15 s, 30 s, 1 min, 3 min, 10 min, … up to 6 h). A newer status change of the same order replaces a pending one.',
    'callbacks.failures': 'Recent failing callbacks',
    'callbacks.failuresHelp':
      'Those whose last attempt you did not receive, newest first. They leave this list once a retry gets through.',
    'callbacks.list': 'Failing callbacks',
    'callbacks.created': 'Created',
    'callbacks.order': 'Order or transfer',
    'callbacks.kind.pay': 'Pay-in',
    'callbacks.kind.transfer': 'Transfer',
    'callbacks.toStatus': 'Status sent',
    'callbacks.url': 'URL',
    'callbacks.attempts': 'Attempts',
    'callbacks.last': 'Last answer',
    'callbacks.state': 'State',
    'callbacks.retrying': 'Retried {at}',
    'callbacks.retryingSoon': 'Retry under way',
    'callbacks.gaveUp': 'No more retries',
    'callbacks.none': 'No callback failed recently.',
  },
);

export function CallbacksPage(props: PageContext) {
  const { t, lang } = useI18n();
  const { router } = props;
  const { query } = router.useLocation();
  const cursor = query.get('cursor') ?? '';
  const api = callbacksApi(props.api.client);
  const list = useResource(() => api.failures(cursor || undefined), [cursor]);
  const go = (next: string) =>
    router.navigate(`callbacks${next ? `?cursor=${encodeURIComponent(next)}` : ''}`);

  return (
    <Page title={t('callbacks.title')}>
      <section aria-labelledby="callbacks-how">
        <h2 id="callbacks-how">{t('callbacks.how')}</h2>
        <p>{t('callbacks.where')}</p>
        <p>{t('callbacks.success')}</p>
        <p>{t('callbacks.retries')}</p>
        <p>{t('callbacks.signed')}</p>
      </section>
      <section aria-labelledby="callbacks-failures">
        <h2 id="callbacks-failures">{t('callbacks.failures')}</h2>
        <p class="hint">{t('callbacks.failuresHelp')}</p>
        {list.loading && !list.data && <Loading />}
        {list.error !== undefined && <ErrorNotice error={list.error} />}
        {list.data && list.data.items.length === 0 && <p>{t('callbacks.none')}</p>}
        {list.data && list.data.items.length > 0 && (
          <TableRegion label={t('callbacks.list')}>
            <table class="roomy">
              <thead>
                <tr>
                  <th scope="col">{t('callbacks.created')}</th>
                  <th scope="col">{t('callbacks.order')}</th>
                  <th scope="col">{t('callbacks.toStatus')}</th>
                  <th scope="col">{t('callbacks.url')}</th>
                  <th scope="col" class="num">
                    {t('callbacks.attempts')}
                  </th>
                  <th scope="col">{t('callbacks.last')}</th>
                  <th scope="col">{t('callbacks.state')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((d) => (
                  <tr key={d.id}>
                    <td class="nowrap">{formatDateTime(d.createdAt, lang)}</td>
                    <td>
                      <router.Link
                        to={`${d.kind === 'transfer' ? 'transfers' : 'orders'}/${encodeURIComponent(d.orderNo)}`}
                      >
                        {d.orderNo}
                      </router.Link>
                      <br />
                      <span class="hint">
                        {t(`callbacks.kind.${d.kind === 'transfer' ? 'transfer' : 'pay'}`)}
                      </span>
                    </td>
                    <td>{d.toStatus}</td>
                    <td class="long">
                      <code>{d.notifyUrl ?? '—'}</code>
                    </td>
                    <td class="num">{d.attemptCount}</td>
                    <td class="long">
                      {[d.lastHttpStatus ? `HTTP ${d.lastHttpStatus}` : '', d.lastError ?? '']
                        .filter(Boolean)
                        .join(' · ') || '—'}
                    </td>
                    <td>
                      {d.status === 'failed' ? (
                        <span class="badge bad">{t('callbacks.gaveUp')}</span>
                      ) : d.nextAttemptAt ? (
                        t('callbacks.retrying', { at: formatDateTime(d.nextAttemptAt, lang) })
                      ) : (
                        t('callbacks.retryingSoon')
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pager next={list.data?.next} onNext={go} onFirst={cursor ? () => go('') : undefined} />
      </section>
    </Page>
  );
}
