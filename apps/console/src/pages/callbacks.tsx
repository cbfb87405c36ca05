import {
  defineDictionaries,
  ErrorNotice,
  formatCount,
  formatDateTime,
  Loading,
  mergeDictionaries,
  Notice,
  Page,
  type PendingApproval,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import {
  type Attempt,
  callbacksApi,
  type Delivery,
  MAY_DELIVERIES,
  MAY_FAILING,
  MAY_RESEND,
} from './callbacks.api';

// Callbacks for operators (CONTRACT section 18): the merchant endpoints whose callbacks fail, grouped by
// merchant and host; a delivery found by its order or transfer number; its attempts with the signed body it
// sends and what the merchant answered; resend, for the roles that may.

export const callbacksMessages = mergeDictionaries(
  defineDictionaries(
    {
      'nav.callbacks': 'Notificaciones',
      'cb.title': 'Notificaciones a comercios',
      'cb.failing': 'Endpoints con fallas',
      'cb.failingList': 'Endpoints con fallas, por comercio y host',
      'cb.failingNone': 'Ningún endpoint falla.',
      'cb.failingWindow':
        'Entregas pendientes cuyo último intento falló, y las abandonadas en las últimas {hours} h.',
      'cb.merchant': 'Comercio',
      'cb.endpoint': 'Endpoint',
      'cb.failingCount': 'Fallando',
      'cb.gaveUp': 'Abandonadas',
      'cb.lastError': 'Último error',
      'cb.oldestPending': 'Pendiente desde',
      'cb.latest': 'Última entrega',
      'cb.open': 'Abrir la entrega de {no}',
      'cb.find': 'Buscar una entrega',
      'cb.orderNo': 'Número de orden o transferencia',
      'cb.search': 'Buscar',
      'cb.found': 'Entregas de {no}',
      'cb.noneFound': 'No hay entregas para ese número.',
      'cb.delivery': 'Entrega',
      'cb.kind': 'Tipo',
      'cb.kind.pay': 'Orden de pago',
      'cb.kind.transfer': 'Transferencia',
      'cb.order': 'Número',
      'cb.toStatus': 'Estado notificado',
      'cb.status': 'Estado de la entrega',
      'cb.status.pending': 'Pendiente',
      'cb.status.succeeded': 'Entregada',
      'cb.status.failed': 'Abandonada',
      'cb.status.superseded': 'Reemplazada',
      'cb.status.skipped': 'Sin URL',
      'cb.inFlight': 'enviándose',
      'cb.notifyUrl': 'URL de notificación',
      'cb.attemptCount': 'Intentos',
      'cb.nextAttempt': 'Siguiente intento',
      'cb.createdAt': 'Creada',
      'cb.request': 'Solicitud (cuerpo firmado)',
      'cb.attempts': 'Intentos',
      'cb.attemptsOf': 'Intentos de la entrega',
      'cb.noAttempts': 'Aún sin intentos.',
      'cb.number': 'N.º',
      'cb.startedAt': 'Inicio',
      'cb.outcome': 'Resultado',
      'cb.outcome.in_flight': 'En curso',
      'cb.outcome.succeeded': 'Exitoso',
      'cb.outcome.failed': 'Fallido',
      'cb.outcome.abandoned': 'Interrumpido',
      'cb.http': 'HTTP',
      'cb.latency': 'Latencia (ms)',
      'cb.response': 'Respuesta',
      'cb.error': 'Error',
      'cb.resend': 'Reenviar la notificación',
      'cb.resent': 'Reenvío programado: se enviará de nuevo en segundos.',
      'cb.approval': 'La solicitud espera aprobación ({id}).',
      'cb.refresh': 'Actualizar',
      'cb.back': 'Volver a las notificaciones',
    },
    {
      'nav.callbacks': 'Callbacks',
      'cb.title': 'Merchant callbacks',
      'cb.failing': 'Failing endpoints',
      'cb.failingList': 'Failing endpoints, by merchant and host',
      'cb.failingNone': 'No endpoint is failing.',
      'cb.failingWindow':
        'Pending deliveries whose last attempt failed, and those given up in the last {hours} h.',
      'cb.merchant': 'Merchant',
      'cb.endpoint': 'Endpoint',
      'cb.failingCount': 'Failing',
      'cb.gaveUp': 'Given up',
      'cb.lastError': 'Last error',
      'cb.oldestPending': 'Pending since',
      'cb.latest': 'Latest delivery',
      'cb.open': 'Open the delivery of {no}',
      'cb.find': 'Find a delivery',
      'cb.orderNo': 'Order or transfer number',
      'cb.search': 'Search',
      'cb.found': 'Deliveries of {no}',
      'cb.noneFound': 'No deliveries for that number.',
      'cb.delivery': 'Delivery',
      'cb.kind': 'Kind',
      'cb.kind.pay': 'Pay order',
      'cb.kind.transfer': 'Transfer',
      'cb.order': 'Number',
      'cb.toStatus': 'Status notified',
      'cb.status': 'Delivery status',
      'cb.status.pending': 'Pending',
      'cb.status.succeeded': 'Delivered',
      'cb.status.failed': 'Given up',
      'cb.status.superseded': 'Superseded',
      'cb.status.skipped': 'No URL',
      'cb.inFlight': 'sending',
      'cb.notifyUrl': 'Notify URL',
      'cb.attemptCount': 'Attempts',
      'cb.nextAttempt': 'Next attempt',
      'cb.createdAt': 'Created',
      'cb.request': 'Request (signed body)',
      'cb.attempts': 'Attempts',
      'cb.attemptsOf': 'Attempts of the delivery',
      'cb.noAttempts': 'No attempts yet.',
      'cb.number': 'No.',
      'cb.startedAt': 'Started',
      'cb.outcome': 'Outcome',
      'cb.outcome.in_flight': 'In flight',
      'cb.outcome.succeeded': 'Succeeded',
      'cb.outcome.failed': 'Failed',
      'cb.outcome.abandoned': 'Interrupted',
      'cb.http': 'HTTP',
      'cb.latency': 'Latency (ms)',
      'cb.response': 'Response',
      'cb.error': 'Error',
      'cb.resend': 'Resend the callback',
      'cb.resent': 'Resend scheduled: it goes out again within seconds.',
      'cb.approval': 'The request waits for approval ({id}).',
      'cb.refresh': 'Refresh',
      'cb.back': 'Back to the callbacks',
    },
  ),
);

/** What the last attempt got: its error, which names the HTTP status when there was one. */
function lastProblem(httpStatus: number | null, error: string | null): string {
  const status = httpStatus ? `HTTP ${httpStatus}` : '';
  if (!error) return status || '—';
  return !status || error.includes(status) ? error : `${status} · ${error}`;
}

/** A vocabulary word in the person's language, or the word itself when the dictionary has none. */
function useWord() {
  const { t } = useI18n();
  return (prefix: string, value: string) => {
    const key = `${prefix}.${value}`;
    const word = t(key);
    return word === key ? value : word;
  };
}

export function CallbacksPage(ctx: PageContext) {
  const { t } = useI18n();
  const { router } = ctx;
  const { query } = router.useLocation();
  const calls = useMemo(() => callbacksApi(ctx.api.client), [ctx.api]);
  const deliveryId = query.get('delivery') ?? '';
  const orderNo = query.get('order') ?? '';

  if (deliveryId) {
    return (
      <Page
        title={t('cb.delivery')}
        actions={
          <router.Link to={orderNo ? `callbacks?order=${encodeURIComponent(orderNo)}` : 'callbacks'}>
            {t('cb.back')}
          </router.Link>
        }
      >
        <DeliveryView calls={calls} id={deliveryId} />
      </Page>
    );
  }
  return (
    <Page title={t('cb.title')}>
      <FindDelivery
        orderNo={orderNo}
        onFind={(no) => router.navigate(no ? `callbacks?order=${encodeURIComponent(no)}` : 'callbacks')}
      />
      {orderNo && <Found calls={calls} orderNo={orderNo} Link={router.Link} />}
      <FailingEndpoints calls={calls} Link={router.Link} />
    </Page>
  );
}

type Calls = ReturnType<typeof callbacksApi>;
type LinkType = PageContext['router']['Link'];

function FindDelivery(props: { orderNo: string; onFind(orderNo: string): void }) {
  const { t } = useI18n();
  const may = useMay();
  if (!may(MAY_DELIVERIES)) return null;
  return (
    <section aria-labelledby="cb-find">
      <h2 id="cb-find">{t('cb.find')}</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          props.onFind(String(data.get('order') ?? '').trim());
        }}
      >
        <div class="field wide">
          <label for="cb-order">{t('cb.orderNo')}</label>
          <input id="cb-order" name="order" defaultValue={props.orderNo} maxLength={64} autoComplete="off" />
        </div>
        <button type="submit">{t('cb.search')}</button>
      </form>
    </section>
  );
}

function Found(props: { calls: Calls; orderNo: string; Link: LinkType }) {
  const { t, lang } = useI18n();
  const word = useWord();
  const found = useResource(() => props.calls.deliveries(props.orderNo), [props.orderNo]);
  const { Link } = props;
  return (
    <section aria-labelledby="cb-found">
      <h2 id="cb-found">{t('cb.found', { no: props.orderNo })}</h2>
      {found.loading && <Loading />}
      {found.error !== undefined && <ErrorNotice error={found.error} />}
      {found.data && found.data.deliveries.length === 0 && <p>{t('cb.noneFound')}</p>}
      {found.data && found.data.deliveries.length > 0 && (
        <TableRegion label={t('cb.found', { no: props.orderNo })}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('cb.createdAt')}</th>
                <th scope="col">{t('cb.kind')}</th>
                <th scope="col">{t('cb.toStatus')}</th>
                <th scope="col">{t('cb.status')}</th>
                <th scope="col" class="num">
                  {t('cb.attemptCount')}
                </th>
                <th scope="col">{t('cb.delivery')}</th>
              </tr>
            </thead>
            <tbody>
              {found.data.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{formatDateTime(d.createdAt, lang)}</td>
                  <td>{word('cb.kind', d.kind)}</td>
                  <td>{d.toStatus}</td>
                  <td>{word('cb.status', d.status)}</td>
                  <td class="num">{formatCount(d.attemptCount, lang)}</td>
                  <td>
                    <Link
                      to={`callbacks?delivery=${encodeURIComponent(d.id)}&order=${encodeURIComponent(props.orderNo)}`}
                    >
                      {t('cb.open', { no: `${d.orderNo} → ${d.toStatus}` })}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

function FailingEndpoints(props: { calls: Calls; Link: LinkType }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const allowed = may(MAY_FAILING);
  const list = useResource(
    () => (allowed ? props.calls.failingEndpoints({ limit: 50 }) : new Promise<never>(() => undefined)),
    [allowed],
  );
  const { Link } = props;
  if (!allowed) return null;
  return (
    <section aria-labelledby="cb-failing">
      <h2 id="cb-failing">{t('cb.failing')}</h2>
      {list.loading && list.data === undefined && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && <p>{t('cb.failingWindow', { hours: list.data.windowHours })}</p>}
      {list.data && list.data.endpoints.length === 0 && <p>{t('cb.failingNone')}</p>}
      {list.data && list.data.endpoints.length > 0 && (
        <TableRegion label={t('cb.failingList')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('cb.merchant')}</th>
                <th scope="col">{t('cb.endpoint')}</th>
                <th scope="col" class="num">
                  {t('cb.failingCount')}
                </th>
                <th scope="col" class="num">
                  {t('cb.gaveUp')}
                </th>
                <th scope="col">{t('cb.lastError')}</th>
                <th scope="col">{t('cb.oldestPending')}</th>
                <th scope="col">{t('cb.latest')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.endpoints.map((e) => (
                <tr key={`${e.mchNo} ${e.endpoint}`}>
                  <td>{e.mchNo}</td>
                  <td>{e.endpoint}</td>
                  <td class="num">{formatCount(e.failing, lang)}</td>
                  <td class="num">{formatCount(e.gaveUp, lang)}</td>
                  <td>{lastProblem(e.lastHttpStatus, e.lastError)}</td>
                  <td>{formatDateTime(e.oldestPendingAt, lang)}</td>
                  <td>
                    <Link to={`callbacks?delivery=${encodeURIComponent(e.latest.id)}`}>
                      {t('cb.open', { no: e.latest.orderNo })}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}

function DeliveryView(props: { calls: Calls; id: string }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const word = useWord();
  const loaded = useResource(() => props.calls.delivery(props.id), [props.id]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<
    | { kind: 'done' }
    | { kind: 'approval'; approval: PendingApproval }
    | { kind: 'error'; error: unknown }
    | null
  >(null);

  if (loaded.loading && loaded.data === undefined) return <Loading />;
  if (loaded.error !== undefined && loaded.data === undefined) return <ErrorNotice error={loaded.error} />;
  const d = loaded.data as Delivery;

  const resend = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await props.calls.resend(d.id);
      setOutcome('approval' in answer ? { kind: 'approval', approval: answer.approval } : { kind: 'done' });
      loaded.reload();
    } catch (error) {
      setOutcome({ kind: 'error', error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <dl class="facts">
        <dt>{t('cb.merchant')}</dt>
        <dd>{d.mchNo}</dd>
        <dt>{t('cb.kind')}</dt>
        <dd>{word('cb.kind', d.kind)}</dd>
        <dt>{t('cb.order')}</dt>
        <dd>{d.orderNo}</dd>
        <dt>{t('cb.toStatus')}</dt>
        <dd>{d.toStatus}</dd>
        <dt>{t('cb.status')}</dt>
        <dd>
          {word('cb.status', d.status)}
          {d.inFlight ? ` (${t('cb.inFlight')})` : ''}
        </dd>
        <dt>{t('cb.notifyUrl')}</dt>
        <dd class="break-anywhere">{d.notifyUrl ?? '—'}</dd>
        <dt>{t('cb.attemptCount')}</dt>
        <dd>{formatCount(d.attemptCount, lang)}</dd>
        <dt>{t('cb.nextAttempt')}</dt>
        <dd>{formatDateTime(d.nextAttemptAt, lang)}</dd>
        <dt>{t('cb.lastError')}</dt>
        <dd class="break-anywhere">{lastProblem(d.lastHttpStatus, d.lastError)}</dd>
        <dt>{t('cb.createdAt')}</dt>
        <dd>{formatDateTime(d.createdAt, lang)}</dd>
      </dl>

      {may(MAY_RESEND) && (
        <p>
          <button type="button" onClick={resend} disabled={busy || d.inFlight || d.status === 'skipped'}>
            {t('cb.resend')}
          </button>
        </p>
      )}
      {outcome?.kind === 'done' && <Notice kind="ok">{t('cb.resent')}</Notice>}
      {outcome?.kind === 'approval' && (
        <Notice kind="info">{t('cb.approval', { id: outcome.approval.id })}</Notice>
      )}
      {outcome?.kind === 'error' && <ErrorNotice error={outcome.error} />}

      <h2>{t('cb.attempts')}</h2>
      <p>
        <button type="button" class="secondary" onClick={loaded.reload}>
          {t('cb.refresh')}
        </button>
      </p>
      {d.attempts.length === 0 ? <p>{t('cb.noAttempts')}</p> : <Attempts attempts={d.attempts} />}

      <h2>{t('cb.request')}</h2>
      <pre class="signed-body">{d.body ?? '—'}</pre>
    </>
  );
}

function Attempts(props: { attempts: readonly Attempt[] }) {
  const { t, lang } = useI18n();
  const word = useWord();
  return (
    <TableRegion label={t('cb.attemptsOf')}>
      <table>
        <thead>
          <tr>
            <th scope="col" class="num">
              {t('cb.number')}
            </th>
            <th scope="col">{t('cb.startedAt')}</th>
            <th scope="col">{t('cb.outcome')}</th>
            <th scope="col" class="num">
              {t('cb.http')}
            </th>
            <th scope="col" class="num">
              {t('cb.latency')}
            </th>
            <th scope="col">{t('cb.response')}</th>
            <th scope="col">{t('cb.error')}</th>
          </tr>
        </thead>
        <tbody>
          {props.attempts.map((a) => (
            <tr key={a.number}>
              <td class="num">{a.number}</td>
              <td>{formatDateTime(a.startedAt, lang)}</td>
              <td>{word('cb.outcome', a.outcome)}</td>
              <td class="num">{a.httpStatus ?? '—'}</td>
              <td class="num">{a.latencyMs ?? '—'}</td>
              <td>
                <code>{a.response ?? '—'}</code>
              </td>
              <td>{a.error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
