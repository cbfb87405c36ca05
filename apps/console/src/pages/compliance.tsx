import {
  defineDictionaries,
  ErrorNotice,
  formatCount,
  formatDateTime,
  formatMoney,
  Loading,
  Notice,
  Page,
  Pager,
  type PendingApproval,
  type Router,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import type { ComponentChildren } from 'preact';
import { Fragment } from 'preact';
import { useId, useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import {
  CASE_KINDS,
  CASE_STATES,
  type ComplianceApi,
  type ComplianceCase,
  complianceApi,
  LIST_FORMATS,
  LIST_KINDS,
  OUTCOMES,
  REPORT_KINDS,
  type Rules,
  type RulesBody,
  type ScreeningList,
} from './compliance.api';

// The compliance desk in the console (CONTRACT section 20, docs/compliance.md): screening lists and their
// versions (an upload waits for a second person), the case queue and a case's page (release, reject,
// close, notes), the monitoring rules (a change waits for a second person) and the reports' CSV. Only
// `compliance`, `owner` and `auditor` read it (auditors are offered no action); no one else sees it at all.

export const complianceMessages = defineDictionaries(
  {
    'nav.compliance': 'Cumplimiento',
    'compliance.sections': 'Mesa de cumplimiento',
    'compliance.cases': 'Casos',
    'compliance.lists': 'Listas',
    'compliance.rules': 'Reglas',
    'compliance.reports': 'Reportes',
    'compliance.waiting': 'Esperando aprobación: una segunda persona de cumplimiento debe aprobarlo.',
    'compliance.waitingLink': 'Ver la solicitud {id}',
    'compliance.reason': 'Motivo',
    'compliance.reasonRequired': 'Escribe el motivo.',
    'compliance.readOnly': 'Solo lectura: tu rol puede consultar, no cambiar.',
    // Lists
    'lists.title': 'Listas de personas',
    'lists.table': 'Listas y sus versiones',
    'lists.name': 'Nombre',
    'lists.kind': 'Tipo',
    'lists.kind.blocked': 'Bloqueadas',
    'lists.kind.watch': 'Vigilancia',
    'lists.effective': 'Versión vigente',
    'lists.entries': 'Personas',
    'lists.thresholds': 'Umbrales (coincidencia / revisión)',
    'lists.none': 'Aún no hay listas.',
    'lists.noEffective': 'Ninguna',
    'lists.versions': 'Versiones de {name}',
    'lists.version': 'Versión',
    'lists.state': 'Estado',
    'lists.state.pending': 'Pendiente de aprobación',
    'lists.state.effective': 'Vigente',
    'lists.state.superseded': 'Reemplazada',
    'lists.state.rejected': 'Rechazada',
    'lists.format': 'Formato',
    'lists.format.csv': 'CSV de la plataforma',
    'lists.format.ofac-sdn': 'SDN de OFAC (sdn.csv)',
    'lists.uploadedBy': 'Subió',
    'lists.uploadedAt': 'Subida',
    'lists.approval': 'Aprobación',
    'lists.create': 'Nueva lista',
    'lists.createButton': 'Crear lista',
    'lists.created': 'Lista {name} creada.',
    'lists.nameRequired': 'Escribe el nombre de la lista.',
    'lists.upload': 'Subir una versión de {name}',
    'lists.file': 'Archivo',
    'lists.fileHint':
      'CSV con encabezado name,rfc,curp,birthDate,country,reference (UTF-8), o sdn.csv de OFAC. Hasta 64 MiB.',
    'lists.fileRequired': 'Elige el archivo.',
    'lists.uploadButton': 'Subir versión de {name}',
    'lists.fourEyes': 'Una versión nueva entra en vigor cuando una segunda persona la aprueba.',
    // Cases
    'cases.title': 'Casos',
    'cases.filter': 'Filtrar',
    'cases.state': 'Estado',
    'cases.kind': 'Tipo',
    'cases.any': 'Cualquiera',
    'cases.table': 'Cola de casos',
    'cases.id': 'Caso',
    'cases.open.link': 'Ver caso {id}',
    'cases.subject': 'Persona o regla',
    'cases.merchant': 'Comercio',
    'cases.createdAt': 'Abierto',
    'cases.state.held': 'Retenido',
    'cases.state.open': 'Abierto',
    'cases.state.released': 'Liberado',
    'cases.state.rejected': 'Rechazado',
    'cases.state.closed': 'Cerrado',
    'cases.kind.screening': 'Listas',
    'cases.kind.rule': 'Regla de monitoreo',
    'case.title': 'Caso {id}',
    'case.back': 'Volver a casos',
    'case.subject': 'Persona revisada',
    'case.subjectName': 'Nombre',
    'case.rfc': 'RFC',
    'case.curp': 'CURP',
    'case.account': 'Cuenta',
    'case.bank': 'Banco',
    'case.match': 'Coincidencia',
    'case.list': 'Lista',
    'case.entry': 'Persona en la lista',
    'case.birthDate': 'Fecha de nacimiento',
    'case.country': 'País',
    'case.reference': 'Referencia',
    'case.matchKind': 'Resultado',
    'case.match.hit': 'Coincide',
    'case.match.review': 'Por revisar',
    'case.by': 'Por',
    'case.by.name': 'nombre',
    'case.by.rfc': 'RFC',
    'case.by.curp': 'CURP',
    'case.score': 'Similitud',
    'case.rule': 'Regla',
    'case.figures': 'Cifras',
    'case.decision': 'Decisión',
    'case.outcome': 'Resultado',
    'case.closedAt': 'Cerrado',
    'case.holds': 'Retiene un pago: no sale hasta que alguien lo libere o rechace.',
    'case.needsTwo': 'Coincide con una lista de bloqueadas: liberarlo requiere una segunda persona.',
    'case.operations': 'Operaciones',
    'case.operationsTable': 'Operaciones del caso',
    'case.opKind': 'Tipo',
    'case.opKind.payout': 'Pago (dispersión)',
    'case.opKind.deposit': 'Depósito',
    'case.opKind.payin': 'Cobro',
    'case.ref': 'Referencia',
    'case.at': 'Momento',
    'case.amount': 'Monto',
    'case.counterparty': 'Contraparte',
    'case.history': 'Historial',
    'case.notes': 'Agregar una nota',
    'case.note': 'Nota',
    'case.noteRequired': 'Escribe la nota.',
    'case.noteButton': 'Agregar nota',
    'case.noted': 'Nota agregada.',
    'case.release': 'Liberar el pago',
    'case.releaseReason': 'Motivo de la liberación (opcional)',
    'case.releaseButton': 'Liberar pago',
    'case.released': 'Pago liberado: transferencia {transferNo} {status}.',
    'case.reject': 'Rechazar el pago',
    'case.rejectReason': 'Motivo del rechazo',
    'case.rejectButton': 'Rechazar pago',
    'case.rejected': 'Pago rechazado: transferencia {transferNo} {status}.',
    'case.close': 'Cerrar el caso',
    'case.closeOutcome': 'Resultado',
    'case.outcome.not_unusual': 'No es inusual',
    'case.outcome.report': 'Reportar como operación inusual',
    'case.closeReason': 'Motivo del cierre',
    'case.closeButton': 'Cerrar caso',
    'case.closed': 'Caso cerrado.',
    // Rules
    'rules.title': 'Reglas de monitoreo',
    'rules.largeOperation': 'Operación grande: monto mínimo (MXN)',
    'rules.structuring': 'Fraccionamiento: operaciones en 24 h cerca de un límite',
    'rules.newPayeeVolume': 'Beneficiario nuevo: monto en 24 h (MXN)',
    'rules.manyPayers': 'Muchos ordenantes: distintos en una hora',
    'rules.off': 'Apagada',
    'rules.notEvaluated': 'Se guarda y muestra; aún no se evalúa.',
    'rules.emptyOff': 'Vacío apaga la regla.',
    'rules.badAmount': 'Un monto en pesos mayor que cero, con hasta dos decimales.',
    'rules.badCount': 'Un número entero mayor que cero.',
    'rules.save': 'Proponer cambio',
    'rules.fourEyes': 'Un cambio de reglas entra en vigor cuando una segunda persona lo aprueba.',
    'rules.updated': 'Último cambio: {by}, {at}',
    // Reports
    'reports.title': 'Reportes',
    'reports.kind': 'Reporte',
    'reports.kind.unusual': 'Operaciones inusuales',
    'reports.kind.blocked': 'Coincidencias con bloqueadas',
    'reports.from': 'Desde (día de la Ciudad de México)',
    'reports.to': 'Hasta (incluido)',
    'reports.hint':
      'Días de la Ciudad de México, ambos incluidos, por la fecha de la operación. Inusuales: los casos cerrados como reporte.',
    'reports.badRange': 'Escribe dos días, el primero no posterior al segundo.',
    'reports.download': 'Descargar CSV',
  },
  {
    'nav.compliance': 'Compliance',
    'compliance.sections': 'Compliance desk',
    'compliance.cases': 'Cases',
    'compliance.lists': 'Lists',
    'compliance.rules': 'Rules',
    'compliance.reports': 'Reports',
    'compliance.waiting': 'Waiting for approval: a second compliance person must approve it.',
    'compliance.waitingLink': 'Open request {id}',
    'compliance.reason': 'Reason',
    'compliance.reasonRequired': 'Write the reason.',
    'compliance.readOnly': 'Read only: your role may read, not change.',
    'lists.title': 'Screening lists',
    'lists.table': 'Lists and their versions',
    'lists.name': 'Name',
    'lists.kind': 'Kind',
    'lists.kind.blocked': 'Blocked',
    'lists.kind.watch': 'Watch',
    'lists.effective': 'Effective version',
    'lists.entries': 'Persons',
    'lists.thresholds': 'Thresholds (hit / review)',
    'lists.none': 'No list yet.',
    'lists.noEffective': 'None',
    'lists.versions': 'Versions of {name}',
    'lists.version': 'Version',
    'lists.state': 'State',
    'lists.state.pending': 'Waiting for approval',
    'lists.state.effective': 'Effective',
    'lists.state.superseded': 'Superseded',
    'lists.state.rejected': 'Rejected',
    'lists.format': 'Format',
    'lists.format.csv': "The platform's CSV",
    'lists.format.ofac-sdn': "OFAC's SDN (sdn.csv)",
    'lists.uploadedBy': 'Uploaded by',
    'lists.uploadedAt': 'Uploaded',
    'lists.approval': 'Approval',
    'lists.create': 'New list',
    'lists.createButton': 'Create list',
    'lists.created': 'List {name} created.',
    'lists.nameRequired': "Write the list's name.",
    'lists.upload': 'Upload a version of {name}',
    'lists.file': 'File',
    'lists.fileHint':
      "CSV with the header name,rfc,curp,birthDate,country,reference (UTF-8), or OFAC's sdn.csv. Up to 64 MiB.",
    'lists.fileRequired': 'Choose the file.',
    'lists.uploadButton': 'Upload version of {name}',
    'lists.fourEyes': 'A new version takes effect once a second person approves it.',
    'cases.title': 'Cases',
    'cases.filter': 'Filter',
    'cases.state': 'State',
    'cases.kind': 'Kind',
    'cases.any': 'Any',
    'cases.table': 'Case queue',
    'cases.id': 'Case',
    'cases.open.link': 'Open case {id}',
    'cases.subject': 'Person or rule',
    'cases.merchant': 'Merchant',
    'cases.createdAt': 'Opened',
    'cases.state.held': 'Held',
    'cases.state.open': 'Open',
    'cases.state.released': 'Released',
    'cases.state.rejected': 'Rejected',
    'cases.state.closed': 'Closed',
    'cases.kind.screening': 'Lists',
    'cases.kind.rule': 'Monitoring rule',
    'case.title': 'Case {id}',
    'case.back': 'Back to cases',
    'case.subject': 'Person screened',
    'case.subjectName': 'Name',
    'case.rfc': 'RFC',
    'case.curp': 'CURP',
    'case.account': 'Account',
    'case.bank': 'Bank',
    'case.match': 'Match',
    'case.list': 'List',
    'case.entry': 'Person on the list',
    'case.birthDate': 'Birth date',
    'case.country': 'Country',
    'case.reference': 'Reference',
    'case.matchKind': 'Result',
    'case.match.hit': 'Hit',
    'case.match.review': 'To review',
    'case.by': 'By',
    'case.by.name': 'name',
    'case.by.rfc': 'RFC',
    'case.by.curp': 'CURP',
    'case.score': 'Similarity',
    'case.rule': 'Rule',
    'case.figures': 'Figures',
    'case.decision': 'Decision',
    'case.outcome': 'Outcome',
    'case.closedAt': 'Closed',
    'case.holds': 'Holds a payout: it is not sent until someone releases or rejects it.',
    'case.needsTwo': 'A blocked-list hit: its release needs a second person.',
    'case.operations': 'Operations',
    'case.operationsTable': "The case's operations",
    'case.opKind': 'Kind',
    'case.opKind.payout': 'Payout',
    'case.opKind.deposit': 'Deposit',
    'case.opKind.payin': 'Pay-in',
    'case.ref': 'Reference',
    'case.at': 'When',
    'case.amount': 'Amount',
    'case.counterparty': 'Counterparty',
    'case.history': 'History',
    'case.notes': 'Add a note',
    'case.note': 'Note',
    'case.noteRequired': 'Write the note.',
    'case.noteButton': 'Add note',
    'case.noted': 'Note added.',
    'case.release': 'Release the payout',
    'case.releaseReason': 'Reason for the release (optional)',
    'case.releaseButton': 'Release payout',
    'case.released': 'Payout released: transfer {transferNo} {status}.',
    'case.reject': 'Reject the payout',
    'case.rejectReason': 'Reason for the rejection',
    'case.rejectButton': 'Reject payout',
    'case.rejected': 'Payout rejected: transfer {transferNo} {status}.',
    'case.close': 'Close the case',
    'case.closeOutcome': 'Outcome',
    'case.outcome.not_unusual': 'Not unusual',
    'case.outcome.report': 'Report as an unusual operation',
    'case.closeReason': 'Reason for closing',
    'case.closeButton': 'Close case',
    'case.closed': 'Case closed.',
    'rules.title': 'Monitoring rules',
    'rules.largeOperation': 'Large operation: minimum amount (MXN)',
    'rules.structuring': 'Structuring: operations in 24 h near a limit',
    'rules.newPayeeVolume': 'New payee: amount in 24 h (MXN)',
    'rules.manyPayers': 'Many payers: distinct in one hour',
    'rules.off': 'Off',
    'rules.notEvaluated': 'Stored and shown; not evaluated yet.',
    'rules.emptyOff': 'Empty turns the rule off.',
    'rules.badAmount': 'An amount in pesos above zero, with at most two decimals.',
    'rules.badCount': 'A whole number above zero.',
    'rules.save': 'Propose change',
    'rules.fourEyes': 'A change of the rules takes effect once a second person approves it.',
    'rules.updated': 'Last change: {by}, {at}',
    'reports.title': 'Reports',
    'reports.kind': 'Report',
    'reports.kind.unusual': 'Unusual operations',
    'reports.kind.blocked': 'Blocked-list hits',
    'reports.from': 'From (Mexico City day)',
    'reports.to': 'To (included)',
    'reports.hint':
      'Mexico City days, both included, by the time of the operation. Unusual: the cases closed as report.',
    'reports.badRange': 'Write two days, the first not after the second.',
    'reports.download': 'Download CSV',
  },
);

/** The approvals page names these requests (they are the desk's four-eyes actions). */
export const complianceApprovalMessages = defineDictionaries(
  {
    'approvals.action.screening_list.upload': 'Poner en vigor una versión de una lista',
    'approvals.action.compliance_rules.update': 'Cambiar las reglas de monitoreo',
    'approvals.action.compliance_case.release': 'Liberar un pago retenido (lista de bloqueadas)',
  },
  {
    'approvals.action.screening_list.upload': 'Put a version of a list in effect',
    'approvals.action.compliance_rules.update': 'Change the monitoring rules',
    'approvals.action.compliance_case.release': 'Release a held payout (blocked list)',
  },
);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,8}(\.\d{1,2})?$/;
const COUNT = /^[1-9]\d{0,5}$/;

/** Today in Mexico City, yyyy-MM-dd. */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(Date.now());
}

function useCompliance(api: PageContext['api']): ComplianceApi {
  return useMemo(() => complianceApi(api.client), [api]);
}

function label(t: (key: string) => string, key: string, fallback: string): string {
  const text = t(key);
  return text === key ? fallback : text;
}

/** The desk's own links (cases, lists, rules, reports) above each of its pages. */
function DeskPage(props: { title: string; router: Router; children: ComponentChildren }) {
  const { t } = useI18n();
  const { Link } = props.router;
  return (
    <Page title={props.title}>
      <nav aria-label={t('compliance.sections')} class="subnav">
        <ul>
          <li>
            <Link to="compliance">{t('compliance.cases')}</Link>
          </li>
          <li>
            <Link to="compliance/lists">{t('compliance.lists')}</Link>
          </li>
          <li>
            <Link to="compliance/rules">{t('compliance.rules')}</Link>
          </li>
          <li>
            <Link to="compliance/reports">{t('compliance.reports')}</Link>
          </li>
        </ul>
      </nav>
      {props.children}
    </Page>
  );
}

/** What a request that went to four eyes says, with the link to it on the approvals page. */
function Waiting(props: { approval: { id: string }; router: Router }) {
  const { t } = useI18n();
  const { Link } = props.router;
  return (
    <Notice kind="info">
      {t('compliance.waiting')}{' '}
      <Link to={`approvals?id=${encodeURIComponent(props.approval.id)}`}>
        {t('compliance.waitingLink', { id: props.approval.id })}
      </Link>
    </Notice>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Lists

export function ListsPage(ctx: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const desk = useCompliance(ctx.api);
  const [tick, setTick] = useState(0);
  const lists = useResource(() => desk.lists(), [tick]);
  const [outcome, setOutcome] = useState<{
    ok?: string;
    approval?: PendingApproval;
    error?: unknown;
  } | null>(null);
  const reload = () => setTick((n) => n + 1);
  const canChange = may('POST /admin/screening/lists');

  return (
    <DeskPage title={t('lists.title')} router={ctx.router}>
      {!canChange && lists.data && <p>{t('compliance.readOnly')}</p>}
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.approval && <Waiting approval={outcome.approval} router={ctx.router} />}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {lists.loading && !lists.data && <Loading />}
      {lists.error !== undefined && <ErrorNotice error={lists.error} />}
      {lists.data && lists.data.lists.length === 0 && <p>{t('lists.none')}</p>}
      {lists.data && lists.data.lists.length > 0 && (
        <TableRegion label={t('lists.table')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('lists.name')}</th>
                <th scope="col">{t('lists.kind')}</th>
                <th scope="col" class="num">
                  {t('lists.effective')}
                </th>
                <th scope="col" class="num">
                  {t('lists.entries')}
                </th>
                <th scope="col">{t('lists.thresholds')}</th>
              </tr>
            </thead>
            <tbody>
              {lists.data.lists.map((list) => (
                <tr key={list.id}>
                  <th scope="row">
                    {list.name}
                    <br />
                    <code>{list.id}</code>
                  </th>
                  <td>
                    <span class={`badge ${list.kind === 'blocked' ? 'bad' : 'muted'}`}>
                      {label(t, `lists.kind.${list.kind}`, list.kind)}
                    </span>
                  </td>
                  <td class="num">
                    {list.effectiveVersion === undefined
                      ? t('lists.noEffective')
                      : formatCount(list.effectiveVersion, lang)}
                  </td>
                  <td class="num">{formatCount(list.entries ?? 0, lang)}</td>
                  <td>
                    {list.hitThreshold.toFixed(2)} / {list.reviewThreshold.toFixed(2)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {lists.data?.lists.map((list) => (
        <ListVersions
          key={list.id}
          list={list}
          Link={ctx.router.Link}
          canUpload={may('PUT /admin/screening/lists/:id/entries')}
          upload={(format, file) => desk.uploadVersion(list.id, format, file)}
          onUploaded={(approval) => {
            setOutcome({ approval });
            reload();
          }}
        />
      ))}
      {canChange && (
        <CreateList
          create={(body) => desk.createList(body)}
          onCreated={(name) => {
            setOutcome({ ok: t('lists.created', { name }) });
            reload();
          }}
        />
      )}
    </DeskPage>
  );
}

function ListVersions(props: {
  list: ScreeningList;
  Link: Router['Link'];
  canUpload: boolean;
  upload(format: string, file: string): Promise<PendingApproval>;
  onUploaded(approval: PendingApproval): void;
}) {
  const { t, lang } = useI18n();
  const id = useId();
  const { list } = props;
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('lists.versions', { name: list.name })}</h2>
      {list.versions.length === 0 && <p>{t('common.none')}</p>}
      {list.versions.length > 0 && (
        <TableRegion label={t('lists.versions', { name: list.name })}>
          <table class="one-line">
            <thead>
              <tr>
                <th scope="col" class="num">
                  {t('lists.version')}
                </th>
                <th scope="col">{t('lists.state')}</th>
                <th scope="col">{t('lists.format')}</th>
                <th scope="col" class="num">
                  {t('lists.entries')}
                </th>
                <th scope="col">{t('lists.uploadedBy')}</th>
                <th scope="col">{t('lists.uploadedAt')}</th>
                <th scope="col">{t('lists.approval')}</th>
              </tr>
            </thead>
            <tbody>
              {list.versions.map((v) => (
                <tr key={v.id}>
                  <td class="num">{formatCount(v.version, lang)}</td>
                  <td>
                    <span class={`badge ${v.state === 'effective' ? 'good' : 'muted'}`}>
                      {label(t, `lists.state.${v.state}`, v.state)}
                    </span>
                  </td>
                  <td>{label(t, `lists.format.${v.format}`, v.format)}</td>
                  <td class="num">{formatCount(v.entries, lang)}</td>
                  <td>{v.uploadedBy}</td>
                  <td>{formatDateTime(v.createdAt, lang)}</td>
                  <td>
                    {v.approvalId ? (
                      <props.Link to={`approvals?id=${encodeURIComponent(v.approvalId)}`}>
                        {v.approvalId}
                      </props.Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {props.canUpload && (
        <form
          noValidate
          aria-label={t('lists.upload', { name: list.name })}
          onSubmit={async (event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const file = data.get('file');
            const format = String(data.get('format') ?? 'csv');
            if (!(file instanceof File) || file.size === 0) {
              setProblem(t('lists.fileRequired'));
              return;
            }
            setProblem(undefined);
            setError(undefined);
            setBusy(true);
            const form = event.currentTarget;
            try {
              const approval = await props.upload(format, await file.text());
              form.reset();
              props.onUploaded(approval);
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <p>{t('lists.fourEyes')}</p>
          {error !== undefined && <ErrorNotice error={error} />}
          <div class="field">
            <label for={`${id}-format`}>{t('lists.format')}</label>
            <select id={`${id}-format`} name="format" defaultValue="csv">
              {LIST_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {t(`lists.format.${f}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field wide">
            <label for={`${id}-file`}>{t('lists.file')}</label>
            <p class="hint" id={`${id}-file-hint`}>
              {t('lists.fileHint')}
            </p>
            <input
              id={`${id}-file`}
              name="file"
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-file-hint${problem ? ` ${id}-file-error` : ''}`}
            />
            {problem && (
              <p class="field-error" id={`${id}-file-error`}>
                {problem}
              </p>
            )}
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {t('lists.uploadButton', { name: list.name })}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function CreateList(props: {
  create(body: { name: string; kind: string }): Promise<unknown>;
  onCreated(name: string): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('lists.create')}</h2>
      {error !== undefined && <ErrorNotice error={error} />}
      <form
        class="inline"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const name = String(data.get('name') ?? '').trim();
          const kind = String(data.get('kind') ?? 'blocked');
          setProblem(name ? undefined : t('lists.nameRequired'));
          if (!name) return;
          setBusy(true);
          setError(undefined);
          try {
            await props.create({ name, kind });
            form.reset();
            props.onCreated(name);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for={`${id}-name`}>{t('lists.name')}</label>
          <input
            id={`${id}-name`}
            name="name"
            maxLength={100}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-name-error` : undefined}
          />
          {problem && (
            <p class="field-error" id={`${id}-name-error`}>
              {problem}
            </p>
          )}
        </div>
        <div class="field">
          <label for={`${id}-kind`}>{t('lists.kind')}</label>
          <select id={`${id}-kind`} name="kind" defaultValue="blocked">
            {LIST_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`lists.kind.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy}>
          {t('lists.createButton')}
        </button>
      </form>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Cases

function caseSubject(c: ComplianceCase): string {
  if (c.kind === 'rule') return c.rule ?? '—';
  return c.subject?.name || c.subject?.rfc || c.subject?.curp || '—';
}

function stateBadge(state: string): string {
  return state === 'held' ? 'bad' : state === 'open' ? 'muted' : 'good';
}

export function CasesPage(ctx: PageContext) {
  const { t, lang } = useI18n();
  const desk = useCompliance(ctx.api);
  const { router } = ctx;
  const { query } = router.useLocation();
  const filter = { state: query.get('state') ?? '', kind: query.get('kind') ?? '' };
  const cursor = query.get('cursor') ?? '';
  const cases = useResource(
    () => desk.cases(filter, cursor || undefined),
    [filter.state, filter.kind, cursor],
  );
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`compliance${next.size ? `?${next}` : ''}`);
  };

  return (
    <DeskPage title={t('cases.title')} router={router}>
      <form
        class="inline"
        aria-label={t('cases.filter')}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          go({ state: String(data.get('state') ?? ''), kind: String(data.get('kind') ?? '') });
        }}
      >
        <div class="field">
          <label for="cases-state">{t('cases.state')}</label>
          <select id="cases-state" name="state" defaultValue={filter.state}>
            <option value="">{t('cases.any')}</option>
            {CASE_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`cases.state.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="cases-kind">{t('cases.kind')}</label>
          <select id="cases-kind" name="kind" defaultValue={filter.kind}>
            <option value="">{t('cases.any')}</option>
            {CASE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`cases.kind.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t('cases.filter')}</button>
      </form>
      {cases.loading && !cases.data && <Loading />}
      {cases.error !== undefined && <ErrorNotice error={cases.error} />}
      {cases.data && cases.data.cases.length === 0 && <p>{t('common.none')}</p>}
      {cases.data && cases.data.cases.length > 0 && (
        <TableRegion label={t('cases.table')}>
          <table class="one-line">
            <thead>
              <tr>
                <th scope="col">{t('cases.id')}</th>
                <th scope="col">{t('cases.state')}</th>
                <th scope="col">{t('cases.kind')}</th>
                <th scope="col">{t('cases.subject')}</th>
                <th scope="col">{t('cases.merchant')}</th>
                <th scope="col">{t('cases.createdAt')}</th>
              </tr>
            </thead>
            <tbody>
              {cases.data.cases.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <router.Link to={`compliance/cases/${encodeURIComponent(c.id)}`}>
                      <span aria-hidden="true">{c.id}</span>
                      <span class="vh">{t('cases.open.link', { id: c.id })}</span>
                    </router.Link>
                  </th>
                  <td>
                    <span class={`badge ${stateBadge(c.state)}`}>
                      {label(t, `cases.state.${c.state}`, c.state)}
                    </span>
                  </td>
                  <td>{label(t, `cases.kind.${c.kind}`, c.kind)}</td>
                  <td>{caseSubject(c)}</td>
                  <td>{c.mchNo || '—'}</td>
                  <td>{formatDateTime(c.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={cases.data?.nextCursor ?? undefined}
        onNext={(next) => go({ ...filter, cursor: next })}
        onFirst={cursor ? () => go(filter) : undefined}
      />
    </DeskPage>
  );
}

/** Facts as a description list, leaving out what is empty. */
function Facts(props: { items: [string, ComponentChildren][] }) {
  const shown = props.items.filter(([, v]) => v !== '' && v !== undefined && v !== null);
  return (
    <dl class="facts wrap">
      {shown.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The admin API's link to an operation (`/admin/transfers/T…`) as the console's own page for it. */
function consoleLink(link: string | undefined): string | undefined {
  const found = link?.match(/^\/admin\/(transfers|orders)\/([^/?#]+)$/);
  return found ? `${found[1]}/${found[2]}` : undefined;
}

export function CasePage(ctx: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const desk = useCompliance(ctx.api);
  const id = ctx.params['id'] ?? '';
  const [tick, setTick] = useState(0);
  const item = useResource(() => desk.case(id), [id, tick]);
  const seesApprovals = may('GET /admin/approvals');
  const waiting = useResource(
    async () => (seesApprovals ? (await desk.waitingOn(id)).items : []),
    [id, tick, seesApprovals],
  );
  const pending = waiting.data?.[0];
  const [outcome, setOutcome] = useState<{
    ok?: string;
    approval?: PendingApproval;
    error?: unknown;
  } | null>(null);
  const { Link } = ctx.router;
  const c = item.data;
  const done = (next: { ok?: string; approval?: PendingApproval }) => {
    setOutcome(next);
    setTick((n) => n + 1);
  };
  const failed = (error: unknown) => setOutcome({ error });
  const decided = (key: string, answer: { transfer?: { transferNo: string; status: string } | undefined }) =>
    t(key, { transferNo: answer.transfer?.transferNo ?? '—', status: answer.transfer?.status ?? '' });

  return (
    <DeskPage title={t('case.title', { id })} router={ctx.router}>
      <p>
        <Link to="compliance">{t('case.back')}</Link>
      </p>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {(outcome?.approval ?? (c?.state === 'held' ? pending : undefined)) && (
        <Waiting approval={(outcome?.approval ?? pending) as { id: string }} router={ctx.router} />
      )}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {item.loading && !c && <Loading />}
      {item.error !== undefined && <ErrorNotice error={item.error} />}
      {c && (
        <>
          <Facts
            items={[
              [
                t('cases.state'),
                <span key="s" class={`badge ${stateBadge(c.state)}`}>
                  {label(t, `cases.state.${c.state}`, c.state)}
                </span>,
              ],
              [t('cases.kind'), label(t, `cases.kind.${c.kind}`, c.kind)],
              [t('cases.merchant'), c.mchNo ?? ''],
              [t('cases.createdAt'), formatDateTime(c.createdAt, lang)],
              [t('case.decision'), c.decision ?? ''],
              [t('case.outcome'), c.outcome ? label(t, `case.outcome.${c.outcome}`, c.outcome) : ''],
              [t('compliance.reason'), c.reason ?? ''],
              [t('case.closedAt'), c.closedAt ? formatDateTime(c.closedAt, lang) : ''],
            ]}
          />
          {c.state === 'held' && c.holdsPayout && <p>{t('case.holds')}</p>}
          {c.state === 'held' && c.releaseNeedsTwo && <p>{t('case.needsTwo')}</p>}
          <div class="cards">
            {c.subject && (
              <section class="card">
                <h2>{t('case.subject')}</h2>
                <Facts
                  items={[
                    [t('case.subjectName'), c.subject.name ?? ''],
                    [t('case.rfc'), c.subject.rfc ?? ''],
                    [t('case.curp'), c.subject.curp ?? ''],
                    [t('case.account'), c.subject.account ?? ''],
                    [t('case.bank'), c.subject.bank ?? ''],
                  ]}
                />
              </section>
            )}
            {c.entry && (
              <section class="card">
                <h2>{t('case.match')}</h2>
                <Facts
                  items={[
                    [
                      t('case.list'),
                      `${c.entry.listName ?? c.listId ?? ''}${c.listKind ? ` (${label(t, `lists.kind.${c.listKind}`, c.listKind)})` : ''}`,
                    ],
                    [
                      t('case.matchKind'),
                      c.entry.match ? label(t, `case.match.${c.entry.match}`, c.entry.match) : '',
                    ],
                    [t('case.by'), c.entry.by ? label(t, `case.by.${c.entry.by}`, c.entry.by) : ''],
                    [t('case.score'), c.score === undefined ? '' : c.score.toFixed(2)],
                    [t('case.entry'), c.entry.name ?? ''],
                    [t('case.rfc'), c.entry.rfc ?? ''],
                    [t('case.curp'), c.entry.curp ?? ''],
                    [t('case.birthDate'), c.entry.birthDate ?? ''],
                    [t('case.country'), c.entry.country ?? ''],
                    [t('case.reference'), c.entry.reference ?? ''],
                  ]}
                />
              </section>
            )}
            {c.kind === 'rule' && (
              <section class="card">
                <h2>{t('case.rule')}</h2>
                <Facts
                  items={[
                    [t('case.rule'), c.rule ?? ''],
                    ...Object.entries(c.figures ?? {}).map(([key, value]): [string, ComponentChildren] => [
                      key,
                      typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) && key !== 'count'
                        ? formatMoney(value, lang)
                        : String(value),
                    ]),
                  ]}
                />
              </section>
            )}
          </div>

          <h2>{t('case.operations')}</h2>
          {(c.operations ?? []).length === 0 && <p>{t('common.none')}</p>}
          {(c.operations ?? []).length > 0 && (
            <TableRegion label={t('case.operationsTable')}>
              <table class="one-line">
                <thead>
                  <tr>
                    <th scope="col">{t('case.ref')}</th>
                    <th scope="col">{t('case.opKind')}</th>
                    <th scope="col" class="num">
                      {t('case.amount')}
                    </th>
                    <th scope="col">{t('case.counterparty')}</th>
                    <th scope="col">{t('cases.merchant')}</th>
                    <th scope="col">{t('case.at')}</th>
                  </tr>
                </thead>
                <tbody>
                  {(c.operations ?? []).map((op) => {
                    const to = consoleLink(op.link);
                    return (
                      <tr key={`${op.kind}:${op.ref}`}>
                        <th scope="row">{to ? <Link to={to}>{op.ref}</Link> : op.ref}</th>
                        <td>{label(t, `case.opKind.${op.kind}`, op.kind)}</td>
                        <td class="num">{op.amount ? formatMoney(op.amount, lang) : '—'}</td>
                        <td>{[op.name, op.account, op.bank].filter(Boolean).join(' · ') || '—'}</td>
                        <td>{op.mchNo || '—'}</td>
                        <td>{formatDateTime(op.at, lang)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableRegion>
          )}

          <h2>{t('case.history')}</h2>
          <ol class="timeline" aria-label={t('case.history')}>
            {(c.history ?? []).map((h, i) => (
              <li key={i}>
                <strong>{formatDateTime(h.at, lang)}</strong> · {h.actor} · {h.action}
                {h.text ? `: ${h.text}` : ''}
              </li>
            ))}
          </ol>

          {c.state === 'held' &&
            c.holdsPayout &&
            !pending &&
            !waiting.loading &&
            may('POST /admin/compliance/cases/:id/release') && (
              <ReasonForm
                title={t('case.release')}
                reasonLabel={t('case.releaseReason')}
                button={t('case.releaseButton')}
                optional
                act={async (reason) => {
                  const answer = await desk.release(c.id, reason);
                  if ('approval' in answer) done({ approval: answer.approval });
                  else done({ ok: decided('case.released', answer.done) });
                }}
                onError={failed}
              />
            )}
          {c.state === 'held' && c.holdsPayout && may('POST /admin/compliance/cases/:id/reject') && (
            <ReasonForm
              title={t('case.reject')}
              reasonLabel={t('case.rejectReason')}
              button={t('case.rejectButton')}
              act={async (reason) => {
                const answer = await desk.reject(c.id, reason);
                if ('done' in answer) done({ ok: decided('case.rejected', answer.done) });
              }}
              onError={failed}
            />
          )}
          {c.state !== 'held' && c.state !== 'closed' && may('POST /admin/compliance/cases/:id/close') && (
            <ReasonForm
              title={t('case.close')}
              reasonLabel={t('case.closeReason')}
              button={t('case.closeButton')}
              outcomes
              act={async (reason, outcomeChosen) => {
                await desk.close(c.id, { outcome: outcomeChosen ?? 'not_unusual', reason });
                done({ ok: t('case.closed') });
              }}
              onError={failed}
            />
          )}
          {may('POST /admin/compliance/cases/:id/notes') && (
            <ReasonForm
              title={t('case.notes')}
              reasonLabel={t('case.note')}
              button={t('case.noteButton')}
              required={t('case.noteRequired')}
              act={async (text) => {
                await desk.note(c.id, text);
                done({ ok: t('case.noted') });
              }}
              onError={failed}
            />
          )}
        </>
      )}
    </DeskPage>
  );
}

/** A section with a text (a reason or a note) and one button; optionally the outcome of a close. */
function ReasonForm(props: {
  title: string;
  reasonLabel: string;
  button: string;
  optional?: boolean;
  outcomes?: boolean;
  required?: string;
  act(text: string, outcome?: string): Promise<void>;
  onError(error: unknown): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{props.title}</h2>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const text = String(data.get('text') ?? '').trim();
          const outcome = props.outcomes ? String(data.get('outcome') ?? '') : undefined;
          const missing = !props.optional && !text;
          setProblem(missing ? (props.required ?? t('compliance.reasonRequired')) : undefined);
          if (missing) return;
          setBusy(true);
          try {
            await props.act(text, outcome);
            form.reset();
          } catch (err) {
            props.onError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        {props.outcomes && (
          <fieldset class="choices">
            <legend>{t('case.closeOutcome')}</legend>
            {OUTCOMES.map((o, i) => (
              <label key={o}>
                <input type="radio" name="outcome" value={o} defaultChecked={i === 0} />
                {t(`case.outcome.${o}`)}
              </label>
            ))}
          </fieldset>
        )}
        <div class="field">
          <label for={`${id}-text`}>{props.reasonLabel}</label>
          <textarea
            id={`${id}-text`}
            name="text"
            rows={3}
            maxLength={1000}
            required={!props.optional}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
          />
          {problem && (
            <p class="field-error" id={`${id}-error`}>
              {problem}
            </p>
          )}
        </div>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {props.button}
          </button>
        </div>
      </form>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Rules

const RULES = [
  { key: 'largeOperation', field: 'amount', evaluated: true },
  { key: 'structuring', field: 'count', evaluated: false },
  { key: 'newPayeeVolume', field: 'amount', evaluated: false },
  { key: 'manyPayers', field: 'count', evaluated: false },
] as const;

function ruleValue(rules: Rules, key: (typeof RULES)[number]['key']): string {
  const rule = rules[key] as { amount?: string | number; count?: number } | null;
  if (!rule) return '';
  if (rule.amount !== undefined) return Number(rule.amount).toFixed(2);
  return rule.count === undefined ? '' : String(rule.count);
}

export function RulesPage(ctx: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const desk = useCompliance(ctx.api);
  const id = useId();
  const [tick, setTick] = useState(0);
  const rules = useResource(() => desk.rules(), [tick]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ approval?: PendingApproval; error?: unknown } | null>(null);
  const [busy, setBusy] = useState(false);
  const canChange = may('PUT /admin/compliance/rules');
  const r = rules.data;

  return (
    <DeskPage title={t('rules.title')} router={ctx.router}>
      {outcome?.approval && <Waiting approval={outcome.approval} router={ctx.router} />}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {rules.loading && !r && <Loading />}
      {rules.error !== undefined && <ErrorNotice error={rules.error} />}
      {r?.updatedBy && (
        <p>{t('rules.updated', { by: r.updatedBy, at: formatDateTime(r.updatedAt, lang) })}</p>
      )}
      {r && !canChange && (
        <>
          <p>{t('compliance.readOnly')}</p>
          <Facts
            items={RULES.map((rule): [string, ComponentChildren] => {
              const value = ruleValue(r, rule.key);
              const shown = !value
                ? t('rules.off')
                : rule.field === 'amount'
                  ? formatMoney(value, lang)
                  : formatCount(Number(value), lang);
              return [
                t(`rules.${rule.key}`),
                rule.evaluated ? shown : `${shown} (${t('rules.notEvaluated')})`,
              ];
            })}
          />
        </>
      )}
      {r && canChange && (
        <form
          key={tick}
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const found: Record<string, string> = {};
            const body: Record<string, unknown> = {};
            for (const rule of RULES) {
              const text = String(data.get(rule.key) ?? '').trim();
              if (!text) {
                body[rule.key] = null;
                continue;
              }
              const ok = rule.field === 'amount' ? AMOUNT.test(text) && Number(text) > 0 : COUNT.test(text);
              if (!ok) found[rule.key] = t(rule.field === 'amount' ? 'rules.badAmount' : 'rules.badCount');
              else body[rule.key] = { [rule.field]: Number(text) };
            }
            setProblems(found);
            if (Object.keys(found).length > 0) return;
            setBusy(true);
            setOutcome(null);
            try {
              const answer = await desk.setRules(body as unknown as RulesBody);
              setOutcome('approval' in answer ? { approval: answer.approval } : {});
              setTick((n) => n + 1);
            } catch (error) {
              setOutcome({ error });
            } finally {
              setBusy(false);
            }
          }}
        >
          <p>{t('rules.fourEyes')}</p>
          {RULES.map((rule) => {
            const problem = problems[rule.key];
            const hint = `${t('rules.emptyOff')}${rule.evaluated ? '' : ` ${t('rules.notEvaluated')}`}`;
            return (
              <div class="field" key={rule.key}>
                <label for={`${id}-${rule.key}`}>{t(`rules.${rule.key}`)}</label>
                <p class="hint" id={`${id}-${rule.key}-hint`}>
                  {hint}
                </p>
                <input
                  id={`${id}-${rule.key}`}
                  name={rule.key}
                  inputMode={rule.field === 'amount' ? 'decimal' : 'numeric'}
                  autoComplete="off"
                  defaultValue={ruleValue(r, rule.key)}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={`${id}-${rule.key}-hint${problem ? ` ${id}-${rule.key}-error` : ''}`}
                />
                {problem && (
                  <p class="field-error" id={`${id}-${rule.key}-error`}>
                    {problem}
                  </p>
                )}
              </div>
            );
          })}
          <div class="actions">
            <button type="submit" disabled={busy}>
              {t('rules.save')}
            </button>
          </div>
        </form>
      )}
    </DeskPage>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Reports

export function ReportsPage(ctx: PageContext) {
  const { t } = useI18n();
  const desk = useCompliance(ctx.api);
  const id = useId();
  const [kind, setKind] = useState<string>('unusual');
  const [from, setFrom] = useState(`${today().slice(0, 8)}01`);
  const [to, setTo] = useState(today());
  const valid = DAY.test(from) && DAY.test(to) && from <= to;
  return (
    <DeskPage title={t('reports.title')} router={ctx.router}>
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for={`${id}-kind`}>{t('reports.kind')}</label>
          <select id={`${id}-kind`} name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {REPORT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`reports.kind.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`${id}-from`}>{t('reports.from')}</label>
          <input
            id={`${id}-from`}
            name="from"
            type="date"
            value={from}
            aria-describedby={`${id}-hint`}
            onInput={(e) => setFrom(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${id}-to`}>{t('reports.to')}</label>
          <input
            id={`${id}-to`}
            name="to"
            type="date"
            value={to}
            aria-describedby={`${id}-hint`}
            aria-invalid={valid ? undefined : true}
            onInput={(e) => setTo(e.currentTarget.value)}
          />
        </div>
      </form>
      <p class="hint" id={`${id}-hint`}>
        {t('reports.hint')}
      </p>
      {!valid && <p class="field-error">{t('reports.badRange')}</p>}
      {valid && (
        <p>
          <a class="button" href={desk.reportUrl({ kind, from, to })} download>
            {t('reports.download')}
          </a>
        </p>
      )}
    </DeskPage>
  );
}
