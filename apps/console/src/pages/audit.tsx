import {
  defineDictionaries,
  ErrorNotice,
  formatCount,
  formatDateTime,
  Loading,
  Notice,
  Page,
  Pager,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { type AuditFilter, auditApi } from './audit.api';

// The audit log (CONTRACT section 17 "Audit log", section 18 "audit log"): filter by actor, action, target,
// merchant and day, paged on the server newest first; each row's target links to that target's history;
// verify the hash chain; export the same filter as CSV (streamed by the server, spreadsheet-safe).

export const auditMessages = defineDictionaries(
  {
    'nav.audit': 'Auditoría',
    'audit.title': 'Auditoría',
    'audit.filter': 'Filtrar',
    'audit.filters': 'Filtros de la auditoría',
    'audit.clear': 'Quitar filtros',
    'audit.actor': 'Quién (correo o id)',
    'audit.action': 'Acción',
    'audit.actionHint': 'Por ejemplo user.update o session.create',
    'audit.target': 'Objetivo',
    'audit.targetHint': 'tipo:id, por ejemplo user:… o merchant:M1001',
    'audit.merchant': 'Comercio',
    'audit.from': 'Desde el día',
    'audit.to': 'Hasta el día (incluido)',
    'audit.list': 'Entradas de la auditoría',
    'audit.at': 'Cuándo',
    'audit.who': 'Quién',
    'audit.outcome': 'Resultado',
    'audit.details': 'Motivo y cambios',
    'audit.changes': 'Antes y después',
    'audit.before': 'Antes',
    'audit.after': 'Después',
    'audit.approval': 'Aprobación {id}',
    'audit.history': 'Historial de',
    'audit.outcome.success': 'Hecho',
    'audit.outcome.failure': 'Falló',
    'audit.outcome.denied': 'Negado',
    'audit.verify': 'Verificar la cadena',
    'audit.verifying': 'Verificando…',
    'audit.chainOk': 'La cadena está íntegra: {n} entradas verificadas.',
    'audit.chainBroken': 'La cadena está rota desde la entrada {id} ({n} entradas revisadas).',
    'audit.export': 'Exportar CSV',
    'audit.exportHint':
      'El CSV lleva las entradas de los filtros actuales, de la más antigua a la más reciente.',
    'audit.timeZone': 'Días y horas en la hora de la Ciudad de México.',
  },
  {
    'nav.audit': 'Audit log',
    'audit.title': 'Audit log',
    'audit.filter': 'Filter',
    'audit.filters': 'Audit log filters',
    'audit.clear': 'Clear filters',
    'audit.actor': 'Who (email or id)',
    'audit.action': 'Action',
    'audit.actionHint': 'For example user.update or session.create',
    'audit.target': 'Target',
    'audit.targetHint': 'kind:id, for example user:… or merchant:M1001',
    'audit.merchant': 'Merchant',
    'audit.from': 'From day',
    'audit.to': 'To day (included)',
    'audit.list': 'Audit log entries',
    'audit.at': 'When',
    'audit.who': 'Who',
    'audit.outcome': 'Outcome',
    'audit.details': 'Reason and changes',
    'audit.changes': 'Before and after',
    'audit.before': 'Before',
    'audit.after': 'After',
    'audit.approval': 'Approval {id}',
    'audit.history': 'History of',
    'audit.outcome.success': 'Done',
    'audit.outcome.failure': 'Failed',
    'audit.outcome.denied': 'Denied',
    'audit.verify': 'Verify the chain',
    'audit.verifying': 'Verifying…',
    'audit.chainOk': 'The chain holds: {n} entries verified.',
    'audit.chainBroken': 'The chain is broken from entry {id} on ({n} entries checked).',
    'audit.export': 'Export CSV',
    'audit.exportHint': 'The CSV holds the entries of the current filters, oldest first.',
    'audit.timeZone': 'Days and times in Mexico City time.',
  },
);

const FIELDS = ['actor', 'action', 'target', 'mchNo', 'from', 'to'] as const;
type Filters = Record<(typeof FIELDS)[number], string>;

// Mexico City keeps UTC-6 all year (no daylight saving time since 2022): a day starts at 06:00 UTC.
const DAY_START = 'T00:00:00-06:00';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The API's filter: days become instants, `to` takes the whole day. */
function apiFilter(f: Filters): AuditFilter {
  const out: AuditFilter = {};
  if (f.actor) out.actor = f.actor;
  if (f.action) out.action = f.action;
  if (f.target) out.target = f.target;
  if (f.mchNo) out.mchNo = f.mchNo;
  if (DAY.test(f.from)) out.from = new Date(`${f.from}${DAY_START}`).toISOString();
  if (DAY.test(f.to)) out.to = new Date(Date.parse(`${f.to}${DAY_START}`) + 86_400_000).toISOString();
  return out;
}

export function AuditPage(props: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const api = auditApi(props.api.client);
  const { router } = props;
  const { query } = router.useLocation();
  const filters = Object.fromEntries(FIELDS.map((f) => [f, query.get(f) ?? ''])) as Filters;
  const cursor = query.get('cursor') ?? '';
  const filter = apiFilter(filters);
  const list = useResource(
    () => api.entries(filter, cursor || undefined),
    [...FIELDS.map((f) => filters[f]), cursor],
  );
  const [proof, setProof] = useState<
    { ok: boolean; entries: number; firstBroken?: string | undefined } | { error: unknown } | 'busy' | null
  >(null);
  const go = (params: Partial<Filters> & { cursor?: string }) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v) as [string, string][]);
    router.navigate(`audit${next.size ? `?${next}` : ''}`);
  };
  const filtered = FIELDS.some((f) => filters[f]);

  return (
    <Page title={t('audit.title')}>
      <form
        key={query.toString()}
        aria-label={t('audit.filters')}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          go(Object.fromEntries(FIELDS.map((f) => [f, String(data.get(f) ?? '').trim()])));
        }}
      >
        <FilterField name="actor" label={t('audit.actor')} value={filters.actor} max={320} />
        <FilterField
          name="action"
          label={t('audit.action')}
          hint={t('audit.actionHint')}
          value={filters.action}
          max={100}
        />
        <FilterField
          name="target"
          label={t('audit.target')}
          hint={t('audit.targetHint')}
          value={filters.target}
          max={300}
        />
        <FilterField name="mchNo" label={t('audit.merchant')} value={filters.mchNo} max={32} />
        <FilterField name="from" type="date" label={t('audit.from')} value={filters.from} />
        <FilterField name="to" type="date" label={t('audit.to')} value={filters.to} />
        <div class="actions">
          <button type="submit">{t('audit.filter')}</button>
          {filtered && (
            <button type="button" class="secondary" onClick={() => go({})}>
              {t('audit.clear')}
            </button>
          )}
        </div>
      </form>
      <p class="hint">{t('audit.timeZone')}</p>

      <div class="actions">
        {may('GET /admin/audit/verify') && (
          <button
            type="button"
            class="secondary"
            disabled={proof === 'busy'}
            onClick={async () => {
              setProof('busy');
              try {
                setProof(await api.verify());
              } catch (error) {
                setProof({ error });
              }
            }}
          >
            {proof === 'busy' ? t('audit.verifying') : t('audit.verify')}
          </button>
        )}
        {may('GET /admin/audit/export') && (
          <a class="button secondary" href={api.exportUrl(filter)} download aria-describedby="export-hint">
            {t('audit.export')}
          </a>
        )}
      </div>
      {may('GET /admin/audit/export') && (
        <p class="hint" id="export-hint">
          {t('audit.exportHint')}
        </p>
      )}
      {proof && proof !== 'busy' && 'error' in proof && <ErrorNotice error={proof.error} />}
      {proof && proof !== 'busy' && 'ok' in proof && (
        <Notice kind={proof.ok ? 'ok' : 'error'}>
          {proof.ok
            ? t('audit.chainOk', { n: formatCount(proof.entries, lang) })
            : t('audit.chainBroken', { id: proof.firstBroken ?? '?', n: formatCount(proof.entries, lang) })}
        </Notice>
      )}

      {list.loading && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.entries.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.entries.length > 0 && (
        <TableRegion label={t('audit.list')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('audit.at')}</th>
                <th scope="col">{t('audit.who')}</th>
                <th scope="col">{t('audit.action')}</th>
                <th scope="col">{t('audit.target')}</th>
                <th scope="col">{t('audit.merchant')}</th>
                <th scope="col">{t('audit.outcome')}</th>
                <th scope="col">{t('audit.details')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.entries.map((e) => (
                <tr key={e.id}>
                  <td class="nowrap">{formatDateTime(e.at, lang)}</td>
                  <td>
                    {e.actor.label}
                    {e.actor.roles.length > 0 && <span class="hint"> ({e.actor.roles.join(', ')})</span>}
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td class="nowrap">
                    <router.Link to={`audit?${new URLSearchParams({ target: e.target })}`}>
                      <span class="vh">{t('audit.history')} </span>
                      {e.target}
                    </router.Link>
                  </td>
                  <td>{e.mchNo ?? '—'}</td>
                  <td>
                    <span class={`badge ${e.outcome === 'success' ? 'good' : 'bad'}`}>
                      {t(`audit.outcome.${e.outcome}`)}
                    </span>
                    {e.status !== null && <span class="hint"> {e.status}</span>}
                  </td>
                  <td class="long">
                    {e.reason ?? ''}
                    {e.approvalId && <p class="hint">{t('audit.approval', { id: e.approvalId })}</p>}
                    {(e.before != null || e.after != null) && (
                      <details>
                        <summary>{t('audit.changes')}</summary>
                        {e.before != null && (
                          <>
                            <p class="hint">{t('audit.before')}</p>
                            <pre class="signed-body">{JSON.stringify(e.before, null, 2)}</pre>
                          </>
                        )}
                        {e.after != null && (
                          <>
                            <p class="hint">{t('audit.after')}</p>
                            <pre class="signed-body">{JSON.stringify(e.after, null, 2)}</pre>
                          </>
                        )}
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.nextCursor ?? undefined}
        onNext={(next) => go({ ...filters, cursor: next })}
        onFirst={cursor ? () => go(filters) : undefined}
      />
    </Page>
  );
}

function FilterField(props: {
  name: string;
  label: string;
  value: string;
  hint?: string;
  type?: 'text' | 'date';
  max?: number;
}) {
  const id = `audit-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.type === 'date' ? (
        <input id={id} name={props.name} type="date" defaultValue={props.value} />
      ) : (
        <input
          id={id}
          name={props.name}
          type="text"
          defaultValue={props.value}
          maxLength={props.max}
          aria-describedby={props.hint ? `${id}-hint` : undefined}
        />
      )}
    </div>
  );
}
