import {
  ApiError,
  defineDictionaries,
  ErrorNotice,
  formatCount,
  formatDateTime,
  formatMoney,
  Loading,
  Notice,
  Page,
  Pager,
  type Router,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { Fragment } from 'preact';
import { useId, useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import type { ConsoleApi } from '../console-api';
import {
  actionsFor,
  DISCREPANCY_KINDS,
  DISCREPANCY_STATES,
  type DiscrepancyDetail,
  type ReconRun,
  type RunResult,
  reconciliationApi,
} from './reconciliation.api';

// The reconciliation workbench (CONTRACT sections 14 and 18, docs/reconciliation.md): the runs per day and
// route above the discrepancies they found; a run started for a day; a discrepancy's own page with both
// sides and its resolution, which for credit and return waits for a second person (four eyes).

export const reconciliationMessages = defineDictionaries(
  {
    'recon.runs': 'Corridas',
    'recon.runsList': 'Corridas por día y ruta',
    'recon.runState': 'Estado',
    'recon.run.running': 'En curso',
    'recon.run.succeeded': 'Terminada',
    'recon.run.failed': 'Falló',
    'recon.lines': 'Líneas',
    'recon.matched': 'Cuadradas',
    'recon.pendingLines': 'En tránsito',
    'recon.found': 'Discrepancias',
    'recon.startedAt': 'Inicio',
    'recon.noRuns': 'Ninguna corrida con estos filtros.',
    'recon.start': 'Conciliar un día',
    'recon.startDay': 'Día a conciliar',
    'recon.startRoute': 'Ruta (opcional; todas si se deja vacía)',
    'recon.startButton': 'Conciliar',
    'recon.started': 'Día {day} conciliado: {routes} rutas, {found} discrepancias.',
    'recon.failedRoutes':
      'Estas rutas no se pudieron conciliar (las demás sí); vuelve a intentarlo más tarde:',
    'recon.badDay': 'Escribe un día como 2026-11-26.',
    'recon.badRoute': 'Solo minúsculas, dígitos y guiones.',
    'recon.id': 'Número',
    'recon.open.link': 'Ver discrepancia {id}',
    'recon.kind.missing_on_platform': 'Falta en la plataforma',
    'recon.kind.missing_on_channel': 'Falta en el canal',
    'recon.kind.amount_mismatch': 'Monto distinto',
    'recon.kind.unmatched_deposit': 'Depósito sin orden que lo reciba',
    'recon.kindHelp.missing_on_platform': 'El canal movió dinero que la plataforma nunca registró.',
    'recon.kindHelp.missing_on_channel':
      'La plataforma registró un movimiento que ninguna línea del estado de cuenta del canal nombra. Se aclara con el canal.',
    'recon.kindHelp.amount_mismatch':
      'La línea del canal trae otro monto que el movimiento de la plataforma. Se aclara con el canal.',
    'recon.kindHelp.unmatched_deposit':
      'Llegó dinero a una cuenta cuya orden ya está pagada, cerrada o vencida, o por otro monto.',
    'recon.discrepancy': 'Discrepancia {id}',
    'recon.back': 'Volver a conciliación',
    'recon.createdAt': 'Encontrada',
    'recon.platform': 'Plataforma',
    'recon.channel': 'Canal',
    'recon.sideEmpty': 'Sin registro de este lado.',
    'recon.resolve': 'Resolver',
    'recon.action': 'Acción',
    'recon.action.apply': 'Aplicar el depósito (sincronizar la orden)',
    'recon.action.credit': 'Abonar al comercio',
    'recon.action.return': 'Devolver al ordenante',
    'recon.fourEyes': 'Abonar y devolver mueven dinero: una segunda persona debe aprobarlo.',
    'recon.reason': 'Motivo',
    'recon.reasonHint': 'Por qué se resuelve así; queda en la bitácora.',
    'recon.reasonRequired': 'Escribe el motivo.',
    'recon.pickAction': 'Elige una acción.',
    'recon.resolveButton': 'Resolver discrepancia',
    'recon.noAction': 'Este tipo no se resuelve en la plataforma: se aclara con el canal.',
    'recon.waiting': 'Esperando aprobación: una segunda persona debe aprobar esta resolución.',
    'recon.waitingLink': 'Ver la solicitud {id}',
    'recon.resolvedNow': 'Discrepancia resuelta.',
    'recon.resolution': 'Resolución',
    'recon.resolvedBy': 'Resolvió',
    'recon.resolvedAt': 'Resuelta',
    'recon.reference': 'Referencia',
    'recon.resolutionStatus': 'Estado de la devolución',
    'recon.approval': 'Aprobación',
    'recon.field.kind': 'Tipo',
    'recon.field.orderNo': 'Orden',
    'recon.field.transferNo': 'Transferencia',
    'recon.field.mchNo': 'Comercio',
    'recon.field.amount': 'Monto',
    'recon.field.status': 'Estado',
    'recon.field.at': 'Momento',
    'recon.field.reference': 'Referencia del canal',
    'recon.field.claveRastreo': 'Clave de rastreo',
    'recon.field.occurredAt': 'Momento',
    'recon.field.account': 'Cuenta',
    'recon.field.platformRef': 'Referencia de la plataforma',
    'recon.field.upstreamRef': 'Referencia del canal (otra)',
    'recon.field.senderAccount': 'Cuenta ordenante',
    'recon.field.senderName': 'Ordenante',
    'recon.field.applied': 'Aplicado por el canal',
  },
  {
    'recon.runs': 'Runs',
    'recon.runsList': 'Runs by day and route',
    'recon.runState': 'State',
    'recon.run.running': 'Running',
    'recon.run.succeeded': 'Finished',
    'recon.run.failed': 'Failed',
    'recon.lines': 'Lines',
    'recon.matched': 'Matched',
    'recon.pendingLines': 'In flight',
    'recon.found': 'Discrepancies',
    'recon.startedAt': 'Started',
    'recon.noRuns': 'No run with these filters.',
    'recon.start': 'Reconcile a day',
    'recon.startDay': 'Day to reconcile',
    'recon.startRoute': 'Route (optional; every route when empty)',
    'recon.startButton': 'Reconcile',
    'recon.started': 'Day {day} reconciled: {routes} routes, {found} discrepancies.',
    'recon.failedRoutes': 'These routes could not be reconciled (the others were); try them again later:',
    'recon.badDay': 'Write a day such as 2026-11-26.',
    'recon.badRoute': 'Lowercase letters, digits and hyphens only.',
    'recon.id': 'Number',
    'recon.open.link': 'Open discrepancy {id}',
    'recon.kind.missing_on_platform': 'Missing on the platform',
    'recon.kind.missing_on_channel': 'Missing on the channel',
    'recon.kind.amount_mismatch': 'Amount mismatch',
    'recon.kind.unmatched_deposit': 'Deposit with no order to take it',
    'recon.kindHelp.missing_on_platform': 'The channel moved money the platform never recorded.',
    'recon.kindHelp.missing_on_channel':
      "The platform recorded a movement that no line of the channel's statement names. Taken up with the channel.",
    'recon.kindHelp.amount_mismatch':
      "The channel's line carries another amount than the platform's movement. Taken up with the channel.",
    'recon.kindHelp.unmatched_deposit':
      'Money reached an account whose order is already paid, closed or expired, or of another amount.',
    'recon.discrepancy': 'Discrepancy {id}',
    'recon.back': 'Back to reconciliation',
    'recon.createdAt': 'Found',
    'recon.platform': 'Platform',
    'recon.channel': 'Channel',
    'recon.sideEmpty': 'No record on this side.',
    'recon.resolve': 'Resolve',
    'recon.action': 'Action',
    'recon.action.apply': 'Apply the deposit (sync the order)',
    'recon.action.credit': 'Credit the merchant',
    'recon.action.return': 'Return to the sender',
    'recon.fourEyes': 'Credit and return move money: a second person must approve them.',
    'recon.reason': 'Reason',
    'recon.reasonHint': 'Why it is resolved this way; it stays in the audit log.',
    'recon.reasonRequired': 'Write the reason.',
    'recon.pickAction': 'Pick an action.',
    'recon.resolveButton': 'Resolve discrepancy',
    'recon.noAction': 'This kind is not resolved in the platform: it is taken up with the channel.',
    'recon.waiting': 'Waiting for approval: a second person must approve this resolution.',
    'recon.waitingLink': 'Open request {id}',
    'recon.resolvedNow': 'Discrepancy resolved.',
    'recon.resolution': 'Resolution',
    'recon.resolvedBy': 'Resolved by',
    'recon.resolvedAt': 'Resolved',
    'recon.reference': 'Reference',
    'recon.resolutionStatus': 'Return status',
    'recon.approval': 'Approval',
    'recon.field.kind': 'Kind',
    'recon.field.orderNo': 'Order',
    'recon.field.transferNo': 'Transfer',
    'recon.field.mchNo': 'Merchant',
    'recon.field.amount': 'Amount',
    'recon.field.status': 'Status',
    'recon.field.at': 'When',
    'recon.field.reference': 'Channel reference',
    'recon.field.claveRastreo': 'Tracking key (claveRastreo)',
    'recon.field.occurredAt': 'When',
    'recon.field.account': 'Account',
    'recon.field.platformRef': 'Platform reference',
    'recon.field.upstreamRef': 'Channel reference (other)',
    'recon.field.senderAccount': 'Sender account',
    'recon.field.senderName': 'Sender',
    'recon.field.applied': 'Applied by the channel',
  },
);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ROUTE = /^[a-z0-9-]{1,64}$/;

/** Yesterday in Mexico City, yyyy-MM-dd: the day the daily run reconciles. */
function yesterday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(
    Date.now() - 86_400_000,
  );
}

function runBadge(state: string) {
  return state === 'succeeded' ? 'good' : state === 'failed' ? 'bad' : 'muted';
}

/** Runs per day and route, then the discrepancies they found, filtered and paged by the server. */
export function ReconciliationPage(props: { api: ConsoleApi; router: Router }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const { router } = props;
  const recon = useMemo(() => reconciliationApi(props.api.client), [props.api]);
  const { query } = router.useLocation();
  const filters = {
    state: query.get('state') ?? 'open',
    kind: query.get('kind') ?? '',
    day: query.get('day') ?? '',
  };
  const after = query.get('after') ?? '';
  const runsCursor = query.get('runs') ?? '';
  const [tick, setTick] = useState(0);
  const runs = useResource(
    () => recon.runs({ day: filters.day, cursor: runsCursor, limit: 10 }),
    [filters.day, runsCursor, tick],
  );
  const list = useResource(
    () => recon.discrepancies({ ...filters, after, limit: 50 }),
    [filters.state, filters.kind, filters.day, after, tick],
  );
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`reconciliation${next.size ? `?${next}` : ''}`);
  };

  return (
    <Page title={t('recon.title')}>
      <form
        class="inline"
        aria-label={t('recon.filter')}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          go({
            state: String(data.get('state') ?? ''),
            kind: String(data.get('kind') ?? ''),
            day: String(data.get('day') ?? ''),
          });
        }}
      >
        <div class="field">
          <label for="recon-state">{t('recon.state')}</label>
          <select id="recon-state" name="state" defaultValue={filters.state}>
            {DISCREPANCY_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`recon.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="recon-kind">{t('recon.kind')}</label>
          <select id="recon-kind" name="kind" defaultValue={filters.kind}>
            <option value="">{t('recon.any')}</option>
            {DISCREPANCY_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`recon.kind.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="recon-day">{t('recon.day')}</label>
          <input id="recon-day" name="day" type="date" defaultValue={filters.day} />
        </div>
        <button type="submit">{t('recon.filter')}</button>
      </form>

      {may('POST /admin/reconciliations') && (
        <StartRun
          start={(body) => recon.startRun(body)}
          onDone={() => {
            setTick((n) => n + 1);
          }}
        />
      )}

      <h2>{t('recon.runs')}</h2>
      {runs.loading && !runs.data && <Loading />}
      {runs.error !== undefined && <ErrorNotice error={runs.error} />}
      {runs.data && runs.data.items.length === 0 && <p>{t('recon.noRuns')}</p>}
      {runs.data && runs.data.items.length > 0 && (
        <TableRegion label={t('recon.runsList')}>
          <table class="one-line">
            <thead>
              <tr>
                <th scope="col">{t('recon.day')}</th>
                <th scope="col">{t('recon.route')}</th>
                <th scope="col">{t('recon.runState')}</th>
                <th scope="col" class="num">
                  {t('recon.lines')}
                </th>
                <th scope="col" class="num">
                  {t('recon.matched')}
                </th>
                <th scope="col" class="num">
                  {t('recon.pendingLines')}
                </th>
                <th scope="col" class="num">
                  {t('recon.found')}
                </th>
                <th scope="col">{t('recon.startedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.items.map((run: ReconRun) => (
                <tr key={run.id}>
                  <td>{run.day}</td>
                  <td>{run.routeId}</td>
                  <td>
                    <span class={`badge ${runBadge(run.state)}`}>{t(`recon.run.${run.state}`)}</span>
                    {run.error && <span class="vh"> {run.error}</span>}
                  </td>
                  <td class="num">{formatCount(run.lines, lang)}</td>
                  <td class="num">{formatCount(run.matched, lang)}</td>
                  <td class="num">{formatCount(run.pending, lang)}</td>
                  <td class="num">{formatCount(run.discrepancies, lang)}</td>
                  <td>{formatDateTime(run.startedAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={runs.data?.next}
        onNext={(next) => go({ ...filters, after, runs: next })}
        onFirst={runsCursor ? () => go({ ...filters, after }) : undefined}
      />

      <h2>{t('recon.list')}</h2>
      {list.loading && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('recon.list')}>
          <table class="one-line">
            <thead>
              <tr>
                <th scope="col">{t('recon.id')}</th>
                <th scope="col">{t('recon.day')}</th>
                <th scope="col">{t('recon.route')}</th>
                <th scope="col">{t('recon.kind')}</th>
                <th scope="col" class="num">
                  {t('recon.amount')}
                </th>
                <th scope="col">{t('recon.order')}</th>
                <th scope="col">{t('recon.state')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    <router.Link to={`reconciliation/${encodeURIComponent(d.id)}`}>
                      <span aria-hidden="true">{d.id}</span>
                      <span class="vh">{t('recon.open.link', { id: d.id })}</span>
                    </router.Link>
                  </th>
                  <td>{d.day}</td>
                  <td>{d.routeId}</td>
                  <td>{t(`recon.kind.${d.kind}`)}</td>
                  <td class="num">{formatMoney(d.amount, lang)}</td>
                  <td>{String(d.platform['orderNo'] ?? d.platform['transferNo'] ?? '—')}</td>
                  <td>{t(`recon.${d.state}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.next}
        onNext={(next) => go({ ...filters, runs: runsCursor, after: next })}
        onFirst={after ? () => go({ ...filters, runs: runsCursor }) : undefined}
      />
    </Page>
  );
}

/** Starts a run of one day (one route, or every route), and says what it found. */
function StartRun(props: {
  start(body: { day: string; routeId?: string }): Promise<{ done: RunResult } | { approval: unknown }>;
  onDone(): void;
}) {
  const { t, lang } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ day?: string; route?: string }>({});
  const [outcome, setOutcome] = useState<{
    ok?: string;
    failed?: { routeId: string; error: string }[];
    error?: unknown;
  } | null>(null);
  const failed = outcome?.failed ?? [];
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('recon.start')}</h2>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {failed.length > 0 && (
        <Notice kind="error">
          <p>{t('recon.failedRoutes')}</p>
          <ul aria-label={t('recon.failedRoutes')}>
            {failed.map((route) => (
              <li key={route.routeId}>
                <strong>{route.routeId}</strong>: {route.error}
              </li>
            ))}
          </ul>
        </Notice>
      )}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {/* Every route asked for failed (503): the API's message names each one and why. */}
      {outcome?.error instanceof ApiError && outcome.error.status === 503 && outcome.error.message && (
        <p>{outcome.error.message}</p>
      )}
      <form
        class="inline"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const day = String(data.get('day') ?? '').trim();
          const routeId = String(data.get('routeId') ?? '').trim();
          const found = {
            ...(!DAY.test(day) && { day: t('recon.badDay') }),
            ...(routeId && !ROUTE.test(routeId) && { route: t('recon.badRoute') }),
          };
          setProblem(found);
          if (found.day || found.route) return;
          setBusy(true);
          setOutcome(null);
          try {
            const answer = await props.start({ day, ...(routeId && { routeId }) });
            if ('done' in answer) {
              const ran = answer.done.routes.flatMap((r) => (r.state === 'failed' ? [] : [r]));
              const total = ran.reduce((sum, r) => sum + r.discrepancies, 0);
              setOutcome({
                ok: t('recon.started', {
                  day: answer.done.day,
                  routes: formatCount(ran.length, lang),
                  found: formatCount(total, lang),
                }),
                failed: answer.done.routes.flatMap((r) => (r.state === 'failed' ? [r] : [])),
              });
            }
            props.onDone();
          } catch (error) {
            setOutcome({ error });
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for={`${id}-day`}>{t('recon.startDay')}</label>
          <input
            id={`${id}-day`}
            name="day"
            type="date"
            required
            defaultValue={yesterday()}
            aria-invalid={problem.day ? true : undefined}
            aria-describedby={problem.day ? `${id}-day-error` : undefined}
          />
          {problem.day && (
            <p class="field-error" id={`${id}-day-error`}>
              {problem.day}
            </p>
          )}
        </div>
        <div class="field wide">
          <label for={`${id}-route`}>{t('recon.startRoute')}</label>
          <input
            id={`${id}-route`}
            name="routeId"
            autoComplete="off"
            aria-invalid={problem.route ? true : undefined}
            aria-describedby={problem.route ? `${id}-route-error` : undefined}
          />
          {problem.route && (
            <p class="field-error" id={`${id}-route-error`}>
              {problem.route}
            </p>
          )}
        </div>
        <button type="submit" disabled={busy}>
          {t('recon.startButton')}
        </button>
      </form>
    </section>
  );
}

const TIME_FIELDS = new Set(['at', 'occurredAt']);

/** One side of a discrepancy as facts: known fields named, amounts as money, times in Mexico City. */
function Side(props: { title: string; side: Record<string, unknown> }) {
  const { t, lang } = useI18n();
  const entries = Object.entries(props.side).filter(([, v]) => v !== '' && v !== null && v !== undefined);
  const label = (key: string) => {
    const text = t(`recon.field.${key}`);
    return text === `recon.field.${key}` ? key : text;
  };
  const value = (key: string, v: unknown) => {
    if (/amount$/i.test(key) && (typeof v === 'number' || typeof v === 'string')) return formatMoney(v, lang);
    if (TIME_FIELDS.has(key) && typeof v === 'string') return formatDateTime(v, lang);
    if (typeof v === 'boolean') return v ? t('yes') : t('no');
    if (key === 'kind' && typeof v === 'string') return v;
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  return (
    <section class="card">
      <h2>{props.title}</h2>
      {entries.length === 0 ? (
        <p>{t('recon.sideEmpty')}</p>
      ) : (
        <dl class="facts wrap">
          {entries.map(([key, v]) => (
            <Fragment key={key}>
              <dt>{label(key)}</dt>
              <dd>{value(key, v)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </section>
  );
}

/** A discrepancy: what each side recorded, and its resolution (or the form that resolves it). */
export function DiscrepancyPage(ctx: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const id = ctx.params['id'] ?? '';
  const recon = useMemo(() => reconciliationApi(ctx.api.client), [ctx.api]);
  const [tick, setTick] = useState(0);
  const [resolved, setResolved] = useState(false);
  const seesApprovals = may('GET /admin/approvals');
  const item = useResource(() => recon.discrepancy(id), [id, tick]);
  const waiting = useResource(
    async () => (seesApprovals ? (await recon.waitingOn(id)).items : []),
    [id, tick, seesApprovals],
  );
  const reload = () => setTick((n) => n + 1);
  const { Link } = ctx.router;
  const d = item.data;
  const pending = waiting.data?.[0];

  return (
    <Page title={t('recon.discrepancy', { id })}>
      <p>
        <Link to="reconciliation">{t('recon.back')}</Link>
      </p>
      {item.loading && !d && <Loading />}
      {item.error !== undefined && <ErrorNotice error={item.error} />}
      {resolved && d?.state === 'resolved' && <Notice kind="ok">{t('recon.resolvedNow')}</Notice>}
      {d && (
        <>
          <dl class="facts wrap">
            <dt>{t('recon.kind')}</dt>
            <dd>
              {t(`recon.kind.${d.kind}`)} <code>{d.kind}</code>
              <br />
              {t(`recon.kindHelp.${d.kind}`)}
            </dd>
            <dt>{t('recon.amount')}</dt>
            <dd>{formatMoney(d.amount, lang)}</dd>
            <dt>{t('recon.route')}</dt>
            <dd>{d.routeId}</dd>
            <dt>{t('recon.day')}</dt>
            <dd>{d.day}</dd>
            <dt>{t('recon.state')}</dt>
            <dd>
              <span class={`badge ${d.state === 'open' ? 'bad' : 'good'}`}>{t(`recon.${d.state}`)}</span>
            </dd>
            <dt>{t('recon.createdAt')}</dt>
            <dd>{formatDateTime(d.createdAt, lang)}</dd>
          </dl>
          <div class="cards">
            <Side title={t('recon.platform')} side={d.platform} />
            <Side title={t('recon.channel')} side={d.channel} />
          </div>
          {d.resolution && <Resolution resolution={d.resolution} Link={Link} />}
          {d.state === 'open' && pending && (
            <Notice kind="info">
              {t('recon.waiting')}{' '}
              <Link to={`approvals?id=${encodeURIComponent(pending.id)}`}>
                {t('recon.waitingLink', { id: pending.id })}
              </Link>
            </Notice>
          )}
          {d.state === 'open' &&
            !pending &&
            !waiting.loading &&
            may('POST /admin/discrepancies/:id/resolve') && (
              <ResolveForm
                discrepancy={d}
                resolve={(body) => recon.resolve(d.id, body)}
                onResolved={() => {
                  setResolved(true);
                  reload();
                }}
                onWaiting={reload}
              />
            )}
        </>
      )}
    </Page>
  );
}

function Resolution(props: {
  resolution: NonNullable<DiscrepancyDetail['resolution']>;
  Link: PageContext['router']['Link'];
}) {
  const { t, lang } = useI18n();
  const r = props.resolution;
  const { Link } = props;
  return (
    <section>
      <h2>{t('recon.resolution')}</h2>
      <dl class="facts wrap">
        <dt>{t('recon.action')}</dt>
        <dd>{t(`recon.action.${r.action}`)}</dd>
        <dt>{t('recon.reason')}</dt>
        <dd>{r.reason}</dd>
        <dt>{t('recon.resolvedBy')}</dt>
        <dd>{r.operator}</dd>
        <dt>{t('recon.resolvedAt')}</dt>
        <dd>{formatDateTime(r.resolvedAt, lang)}</dd>
        {r.reference && (
          <>
            <dt>{t('recon.reference')}</dt>
            <dd>{r.reference}</dd>
          </>
        )}
        {r.status && (
          <>
            <dt>{t('recon.resolutionStatus')}</dt>
            <dd>{r.status}</dd>
          </>
        )}
        {r.approvalId && (
          <>
            <dt>{t('recon.approval')}</dt>
            <dd>
              <Link to={`approvals?id=${encodeURIComponent(r.approvalId)}`}>{r.approvalId}</Link>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** The actions this kind allows (one home: @agentpay/api/reconciliation), each with a required reason. */
function ResolveForm(props: {
  discrepancy: DiscrepancyDetail;
  resolve(body: {
    action: string;
    reason: string;
  }): Promise<{ done: unknown } | { approval: { id: string } }>;
  onResolved(): void;
  onWaiting(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const actions = actionsFor(props.discrepancy.kind);
  const [problem, setProblem] = useState<{ action?: string; reason?: string }>({});
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  if (actions.length === 0) {
    return (
      <section aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{t('recon.resolve')}</h2>
        <p>{t('recon.noAction')}</p>
      </section>
    );
  }
  const fourEyes = actions.some((a) => a === 'credit' || a === 'return');
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('recon.resolve')}</h2>
      {fourEyes && <p>{t('recon.fourEyes')}</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const action = String(data.get('action') ?? '');
          const reason = String(data.get('reason') ?? '').trim();
          const found = {
            ...(!actions.includes(action as (typeof actions)[number]) && { action: t('recon.pickAction') }),
            ...(!reason && { reason: t('recon.reasonRequired') }),
          };
          setProblem(found);
          if (found.action || found.reason) return;
          setBusy(true);
          setError(undefined);
          try {
            const answer = await props.resolve({ action, reason });
            if ('approval' in answer) props.onWaiting();
            else props.onResolved();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <fieldset class="choices" aria-describedby={problem.action ? `${id}-action-error` : undefined}>
          <legend>{t('recon.action')}</legend>
          {actions.map((action, i) => (
            <label key={action}>
              <input type="radio" name="action" value={action} defaultChecked={i === 0} />
              {t(`recon.action.${action}`)}
            </label>
          ))}
        </fieldset>
        {problem.action && (
          <p class="field-error" id={`${id}-action-error`}>
            {problem.action}
          </p>
        )}
        <div class="field">
          <label for={`${id}-reason`}>{t('recon.reason')}</label>
          <p class="hint" id={`${id}-reason-hint`}>
            {t('recon.reasonHint')}
          </p>
          <textarea
            id={`${id}-reason`}
            name="reason"
            rows={3}
            maxLength={500}
            required
            aria-invalid={problem.reason ? true : undefined}
            aria-describedby={`${id}-reason-hint${problem.reason ? ` ${id}-reason-error` : ''}`}
          />
          {problem.reason && (
            <p class="field-error" id={`${id}-reason-error`}>
              {problem.reason}
            </p>
          )}
        </div>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('recon.resolveButton')}
          </button>
        </div>
      </form>
    </section>
  );
}
