import {
  defineDictionaries,
  ErrorNotice,
  formatCentavos,
  formatCount,
  formatDateTime,
  type Lang,
  Loading,
  Page,
  type Resource,
  type Router,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { ConsoleApi } from '../console-api';
import { callbacksApi, type Figures, type Flow, MAY_BACKLOG, MAY_FIGURES } from './callbacks.api';

// Today at a glance (CONTRACT section 18): pay-ins and payouts per route, the callback backlog, open
// discrepancies, pending approvals and route health. Each card reads its own endpoint, so one that fails says
// so and the others still show; a card the person's roles may not read is not shown.

/** The home page's words (its first keys, home.title and the like, are in messages.ts). */
export const homeMessages = defineDictionaries(
  {
    'home.today': 'Hoy por ruta ({day})',
    'home.payIns': 'Cobros',
    'home.payouts': 'Pagos',
    'home.payInsOf': 'Cobros de hoy por ruta',
    'home.payoutsOf': 'Pagos de hoy por ruta',
    'home.route': 'Ruta',
    'home.count': 'Operaciones',
    'home.amount': 'Monto',
    'home.succeeded': 'Exitosas',
    'home.succeededAmount': 'Monto exitoso',
    'home.failed': 'Fallidas',
    'home.pending': 'En curso',
    'home.rate': 'Tasa de éxito',
    'home.noRoutes': 'No hay rutas.',
    'home.backlog': 'Notificaciones pendientes',
    'home.backlogDue': 'Por enviar: {due} · fallando: {failing}',
    'home.backlogGaveUp': 'Abandonadas en {hours} h: {n}',
    'home.backlogOldest': 'La más antigua por enviar: {at}',
    'home.backlogNone': 'Ninguna espera.',
    'home.failingEndpoints': 'Endpoints con fallas: {n}',
  },
  {
    'home.today': 'Today per route ({day})',
    'home.payIns': 'Pay-ins',
    'home.payouts': 'Payouts',
    'home.payInsOf': "Today's pay-ins per route",
    'home.payoutsOf': "Today's payouts per route",
    'home.route': 'Route',
    'home.count': 'Count',
    'home.amount': 'Amount',
    'home.succeeded': 'Succeeded',
    'home.succeededAmount': 'Amount succeeded',
    'home.failed': 'Failed',
    'home.pending': 'In progress',
    'home.rate': 'Success rate',
    'home.noRoutes': 'There are no routes.',
    'home.backlog': 'Callback backlog',
    'home.backlogDue': 'Due: {due} · failing: {failing}',
    'home.backlogGaveUp': 'Given up in {hours} h: {n}',
    'home.backlogOldest': 'Oldest due since {at}',
    'home.backlogNone': 'Nothing waits.',
    'home.failingEndpoints': 'Failing endpoints: {n}',
  },
);

/** A share of the finished ones as a percent; a dash while none has finished. */
function formatRate(rate: number | null, lang: Lang): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}

/** `load()` once allowed; until then an answer that never comes (the card is not shown meanwhile). */
function when<T>(allowed: boolean, load: () => Promise<T>): Promise<T> {
  return allowed ? load() : new Promise<T>(() => undefined);
}

/** One card: its heading, then what its endpoint answered, or why it could not. */
function Card<T>(props: {
  title: ComponentChildren;
  resource: Resource<T>;
  children: (data: T) => ComponentChildren;
}) {
  const { resource } = props;
  return (
    <li class="card">
      <h2>{props.title}</h2>
      {resource.loading && resource.data === undefined && <Loading />}
      {resource.error !== undefined && <ErrorNotice error={resource.error} />}
      {resource.data !== undefined && props.children(resource.data)}
    </li>
  );
}

function FlowTable(props: { label: string; figures: Figures; pick: (r: Figures['routes'][number]) => Flow }) {
  const { t, lang } = useI18n();
  return (
    <TableRegion label={props.label}>
      <table class="figures">
        <thead>
          <tr>
            <th scope="col">{t('home.route')}</th>
            <th scope="col" class="num">
              {t('home.count')}
            </th>
            <th scope="col" class="num">
              {t('home.amount')}
            </th>
            <th scope="col" class="num">
              {t('home.succeeded')}
            </th>
            <th scope="col" class="num">
              {t('home.succeededAmount')}
            </th>
            <th scope="col" class="num">
              {t('home.failed')}
            </th>
            <th scope="col" class="num">
              {t('home.pending')}
            </th>
            <th scope="col" class="num">
              {t('home.rate')}
            </th>
          </tr>
        </thead>
        <tbody>
          {props.figures.routes.map((route) => {
            const f = props.pick(route);
            return (
              <tr key={route.routeId}>
                <th scope="row">{route.name || route.routeId}</th>
                <td class="num">{formatCount(f.count, lang)}</td>
                <td class="num">{formatCentavos(f.amount, lang)}</td>
                <td class="num">{formatCount(f.succeeded, lang)}</td>
                <td class="num">{formatCentavos(f.succeededAmount, lang)}</td>
                <td class="num">{formatCount(f.failed, lang)}</td>
                <td class="num">{formatCount(f.pending, lang)}</td>
                <td class="num">{formatRate(f.successRate, lang)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

export function HomePage(props: { api: ConsoleApi; Link: Router['Link'] }) {
  const { t, lang } = useI18n();
  const { Link } = props;
  const may = useMay();
  const calls = useMemo(() => callbacksApi(props.api.client), [props.api]);
  const readsFigures = may(MAY_FIGURES);
  const readsBacklog = may(MAY_BACKLOG);
  const readsRoutes = may('GET /admin/routes');
  const readsDiscrepancies = may('GET /admin/discrepancies');
  const readsApprovals = may('GET /admin/approvals');

  // Each reads only once the person may: a call they may not make would only answer 403.
  const figures = useResource(() => when(readsFigures, calls.figures), [readsFigures]);
  const backlog = useResource(() => when(readsBacklog, calls.backlog), [readsBacklog]);
  const routes = useResource(() => when(readsRoutes, props.api.routes), [readsRoutes]);
  const open = useResource(
    () => when(readsDiscrepancies, () => props.api.discrepancies({ state: 'open', limit: 100 })),
    [readsDiscrepancies],
  );
  const approvals = useResource(() => when(readsApprovals, props.api.pendingApprovals), [readsApprovals]);

  return (
    <Page title={t('home.title')}>
      {readsFigures && (
        <section aria-labelledby="home-today">
          <h2 id="home-today">{t('home.today', { day: figures.data?.day ?? '…' })}</h2>
          {figures.loading && figures.data === undefined && <Loading />}
          {figures.error !== undefined && <ErrorNotice error={figures.error} />}
          {figures.data && figures.data.routes.length === 0 && <p>{t('home.noRoutes')}</p>}
          {figures.data && figures.data.routes.length > 0 && (
            <>
              <h3>{t('home.payIns')}</h3>
              <FlowTable label={t('home.payInsOf')} figures={figures.data} pick={(r) => r.payIns} />
              <h3>{t('home.payouts')}</h3>
              <FlowTable label={t('home.payoutsOf')} figures={figures.data} pick={(r) => r.payouts} />
            </>
          )}
        </section>
      )}
      <ul class="cards">
        {readsBacklog && (
          <Card title={<Link to="callbacks">{t('home.backlog')}</Link>} resource={backlog}>
            {(b) => (
              <>
                <p class="figure">{formatCount(b.pending, lang)}</p>
                {b.pending === 0 && b.gaveUp === 0 ? (
                  <p>{t('home.backlogNone')}</p>
                ) : (
                  <>
                    <p>
                      {t('home.backlogDue', {
                        due: formatCount(b.due, lang),
                        failing: formatCount(b.failing, lang),
                      })}
                    </p>
                    <p>{t('home.backlogGaveUp', { n: formatCount(b.gaveUp, lang), hours: b.windowHours })}</p>
                    <p>{t('home.failingEndpoints', { n: formatCount(b.failingEndpoints, lang) })}</p>
                    {b.oldestDueAt && (
                      <p>{t('home.backlogOldest', { at: formatDateTime(b.oldestDueAt, lang) })}</p>
                    )}
                  </>
                )}
              </>
            )}
          </Card>
        )}
        {readsRoutes && (
          <Card title={<Link to="routes">{t('home.routes')}</Link>} resource={routes}>
            {(data) => {
              const healthy = data.routes.filter(
                (r) => r.enabled && (r.health?.state ?? 'closed') === 'closed',
              );
              return (
                <p class="figure">{t('home.routesUp', { up: healthy.length, all: data.routes.length })}</p>
              );
            }}
          </Card>
        )}
        {readsDiscrepancies && (
          <Card title={<Link to="reconciliation">{t('home.discrepancies')}</Link>} resource={open}>
            {(data) => (
              <p class="figure">
                {formatCount(data.items.length, lang)}
                {data.next ? ` ${t('home.more')}` : ''}
              </p>
            )}
          </Card>
        )}
        {readsApprovals && (
          <Card title={<Link to="approvals">{t('home.approvals')}</Link>} resource={approvals}>
            {(data) => <p class="figure">{formatCount(data.items.length, lang)}</p>}
          </Card>
        )}
      </ul>
    </Page>
  );
}
