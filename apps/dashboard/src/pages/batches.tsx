import {
  defineDictionaries,
  ErrorNotice,
  Field,
  formatDateTime,
  formatMoney,
  Loading,
  Notice,
  Page,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { type BatchRequest, batchesApi, type FileCheck, MAY } from './batches.api';

// Batch payouts (CONTRACT section 21; docs/merchant-api.md "Batch payouts"): an owner, admin or finance person
// uploads a CSV and sees every row checked (its errors, or that it is fine) before anything is sent; a file
// without errors is requested; a second person approves it with a current code of their authenticator, and
// only then is it sent. The requester is not offered the approval (and the API refuses it).

export const batchesMessages = defineDictionaries(
  {
    'nav.batches': 'Dispersiones',
    'batches.title': 'Dispersiones',
    'batches.intro':
      'Paga a muchas personas con un archivo CSV (hasta 1,000 filas). Columnas: referencia, monto, clabe y, si quieres, beneficiario, banco, concepto y motivo (también en inglés: bizTransferNo, amount, payeeAccount, payeeName…). Nada se envía hasta que otra persona lo aprueba con su código.',
    'batches.upload': 'Subir un archivo',
    'batches.file': 'Archivo CSV',
    'batches.bizBatchNo': 'Referencia del lote',
    'batches.bizBatchNoHint': 'Única para tu comercio; con ella la consultas por la API.',
    'batches.check': 'Revisar',
    'batches.needFile': 'Elige un archivo.',
    'batches.needRef': 'Escribe la referencia del lote.',
    'batches.review': 'Revisión del archivo',
    'batches.rows': 'Filas del archivo',
    'batches.summary': '{count} filas, total {amount}.',
    'batches.summaryBad': '{count} filas.',
    'batches.hasErrors':
      'El archivo tiene errores en {n} filas: corrígelo y vuelve a subirlo. No se envió nada.',
    'batches.allGood': 'Todas las filas están correctas.',
    'batches.line': 'Fila',
    'batches.ref': 'Referencia',
    'batches.payee': 'Beneficiario',
    'batches.account': 'Cuenta',
    'batches.amount': 'Monto',
    'batches.result': 'Resultado',
    'batches.rowOk': 'Correcta',
    'batches.request': 'Solicitar envío',
    'batches.requested': 'Solicitud {ref} registrada: otra persona debe aprobarla con su código.',
    'batches.requests': 'Solicitudes de dispersión',
    'batches.items': 'Partidas',
    'batches.state': 'Estado',
    'batches.by': 'Solicitó',
    'batches.actions': 'Acciones',
    'batches.state.pending': 'Por aprobar',
    'batches.state.approved': 'Aprobada',
    'batches.state.rejected': 'Rechazada',
    'batches.state.cancelled': 'Cancelada',
    'batches.batch.progress': 'Enviándose: {done} de {count} terminadas',
    'batches.batch.done': 'Terminada: {success} pagadas, {fail} fallidas',
    'batches.you': 'Tú',
    'batches.yoursWaits': 'La aprueba otra persona.',
    'batches.code': 'Código del autenticador para {ref}',
    'batches.approve': 'Aprobar',
    'batches.reject': 'Rechazar',
    'batches.cancel': 'Cancelar',
    'batches.who': '{ref}',
    'batches.approved': 'Dispersión {ref} aprobada y enviada.',
    'batches.rejected': 'Solicitud {ref} rechazada.',
    'batches.needCode': 'Escribe los 6 dígitos de tu autenticador.',
    'batches.file.empty': 'El archivo no tiene filas.',
    'batches.file.no_header': 'La primera fila debe tener los nombres de las columnas.',
    'batches.file.missing_column': 'Falta la columna {column}.',
    'batches.file.too_many_rows': 'Más de 1,000 filas: divide el archivo.',
    'batches.file.unbalanced_quotes': 'Hay comillas sin cerrar.',
    'batches.problem.required': '{column}: falta',
    'batches.problem.too_long': '{column}: demasiado largo',
    'batches.problem.amount': '{column}: monto inválido (pesos, hasta 2 decimales, con punto)',
    'batches.problem.payee_type': '{column}: tipo de cuenta desconocido',
    'batches.problem.clabe': '{column}: CLABE inválida (18 dígitos y dígito verificador)',
    'batches.problem.card': '{column}: tarjeta inválida',
    'batches.problem.payee_code': '{column}: el banco no coincide con la CLABE',
    'batches.problem.repeated': '{column}: repetida en el archivo',
  },
  {
    'nav.batches': 'Batch payouts',
    'batches.title': 'Batch payouts',
    'batches.intro':
      'Pay many people with one CSV file (up to 1,000 rows). Columns: bizTransferNo, amount, payeeAccount and, optionally, payeeName, payeeCode, title and reason (Spanish headers too: referencia, monto, clabe, beneficiario…). Nothing is sent until another person approves it with their code.',
    'batches.upload': 'Upload a file',
    'batches.file': 'CSV file',
    'batches.bizBatchNo': 'Batch reference',
    'batches.bizBatchNoHint': 'Unique for your business; the API finds the batch by it.',
    'batches.check': 'Check',
    'batches.needFile': 'Choose a file.',
    'batches.needRef': 'Enter the batch reference.',
    'batches.review': 'File check',
    'batches.rows': 'Rows of the file',
    'batches.summary': '{count} rows, total {amount}.',
    'batches.summaryBad': '{count} rows.',
    'batches.hasErrors': 'The file has errors in {n} rows: fix it and upload it again. Nothing was sent.',
    'batches.allGood': 'Every row is correct.',
    'batches.line': 'Line',
    'batches.ref': 'Reference',
    'batches.payee': 'Payee',
    'batches.account': 'Account',
    'batches.amount': 'Amount',
    'batches.result': 'Result',
    'batches.rowOk': 'Correct',
    'batches.request': 'Request sending',
    'batches.requested': 'Request {ref} recorded: another person must approve it with their code.',
    'batches.requests': 'Batch payout requests',
    'batches.items': 'Items',
    'batches.state': 'State',
    'batches.by': 'Requested by',
    'batches.actions': 'Actions',
    'batches.state.pending': 'Awaiting approval',
    'batches.state.approved': 'Approved',
    'batches.state.rejected': 'Rejected',
    'batches.state.cancelled': 'Cancelled',
    'batches.batch.progress': 'Sending: {done} of {count} ended',
    'batches.batch.done': 'Done: {success} paid, {fail} failed',
    'batches.you': 'You',
    'batches.yoursWaits': 'Another person approves it.',
    'batches.code': 'Authenticator code for {ref}',
    'batches.approve': 'Approve',
    'batches.reject': 'Reject',
    'batches.cancel': 'Cancel',
    'batches.who': '{ref}',
    'batches.approved': 'Batch payout {ref} approved and sent.',
    'batches.rejected': 'Request {ref} rejected.',
    'batches.needCode': 'Enter the 6 digits of your authenticator.',
    'batches.file.empty': 'The file has no rows.',
    'batches.file.no_header': 'The first row must name the columns.',
    'batches.file.missing_column': 'The column {column} is missing.',
    'batches.file.too_many_rows': 'More than 1,000 rows: split the file.',
    'batches.file.unbalanced_quotes': 'A quote is not closed.',
    'batches.problem.required': '{column}: missing',
    'batches.problem.too_long': '{column}: too long',
    'batches.problem.amount': '{column}: invalid amount (pesos, at most 2 decimals, with a dot)',
    'batches.problem.payee_type': '{column}: unknown account type',
    'batches.problem.clabe': '{column}: invalid CLABE (18 digits and check digit)',
    'batches.problem.card': '{column}: invalid card',
    'batches.problem.payee_code': '{column}: the bank does not match the CLABE',
    'batches.problem.repeated': '{column}: repeated in the file',
  },
);

export function BatchesPage(props: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const api = useMemo(() => batchesApi(props.api.client), [props.api]);
  const list = useResource(() => api.list(), []);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);

  return (
    <Page title={t('batches.title')}>
      <p>{t('batches.intro')}</p>
      {may(MAY.check) && (
        <Upload
          api={api}
          onRequested={(ref) => {
            setOutcome({ ok: t('batches.requested', { ref }) });
            list.reload();
          }}
        />
      )}
      <h2 id="batch-requests-heading">{t('batches.requests')}</h2>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {list.loading && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('batches.requests')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('batches.ref')}</th>
                <th scope="col">{t('batches.items')}</th>
                <th scope="col">{t('batches.amount')}</th>
                <th scope="col">{t('batches.state')}</th>
                <th scope="col">{t('batches.by')}</th>
                <th scope="col">{t('batches.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((r) => (
                <RequestRow
                  key={r.id}
                  request={r}
                  lang={lang}
                  canApprove={may(MAY.approve)}
                  canReject={may(MAY.reject)}
                  approve={async (code) => {
                    setOutcome(null);
                    try {
                      await api.approve(r.id, code);
                      setOutcome({ ok: t('batches.approved', { ref: r.bizBatchNo }) });
                      list.reload();
                    } catch (error) {
                      setOutcome({ error });
                    }
                  }}
                  reject={async () => {
                    setOutcome(null);
                    try {
                      await api.reject(r.id);
                      setOutcome({ ok: t('batches.rejected', { ref: r.bizBatchNo }) });
                      list.reload();
                    } catch (error) {
                      setOutcome({ error });
                    }
                  }}
                />
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Page>
  );
}

function RequestRow(props: {
  request: BatchRequest;
  lang: Parameters<typeof formatMoney>[1];
  canApprove: boolean;
  canReject: boolean;
  approve(code: string): Promise<void>;
  reject(): Promise<void>;
}) {
  const { t } = useI18n();
  const r = props.request;
  const [codeError, setCodeError] = useState<string | undefined>();
  const batch = r.batch;
  return (
    <tr>
      <th scope="row">
        <code>{r.bizBatchNo}</code>
        <br />
        <span class="hint">{formatDateTime(r.requestedAt, props.lang)}</span>
      </th>
      <td>{r.count}</td>
      <td class="nowrap">{formatMoney(r.amount, props.lang)}</td>
      <td>
        <span class={`badge ${r.state === 'approved' ? 'good' : r.state === 'pending' ? 'bad' : 'muted'}`}>
          {t(`batches.state.${r.state}`)}
        </span>
        {batch && (
          <p class="hint">
            {batch.status === 'done'
              ? t('batches.batch.done', { success: batch.successCount ?? 0, fail: batch.failCount ?? 0 })
              : t('batches.batch.progress', { done: r.count - (batch.progressCount ?? 0), count: r.count })}
          </p>
        )}
      </td>
      <td>{r.requestedByMe ? t('batches.you') : r.requestedBy}</td>
      <td>
        {r.state === 'pending' && r.requestedByMe && (
          <div class="actions">
            <span class="hint">{t('batches.yoursWaits')}</span>
            {props.canReject && (
              <button type="button" class="secondary" onClick={() => props.reject()}>
                {t('batches.cancel')}
                <span class="vh"> {t('batches.who', { ref: r.bizBatchNo })}</span>
              </button>
            )}
          </div>
        )}
        {r.state === 'pending' && !r.requestedByMe && props.canApprove && (
          <form
            noValidate
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const code = String(new FormData(form).get('code') ?? '').trim();
              if (!/^\d{6}$/.test(code)) {
                setCodeError(t('batches.needCode'));
                return;
              }
              setCodeError(undefined);
              await props.approve(code);
              form.reset();
            }}
          >
            <Field
              label={t('batches.code', { ref: r.bizBatchNo })}
              name="code"
              autocomplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              error={codeError}
            />
            <div class="actions">
              <button type="submit">
                {t('batches.approve')}
                <span class="vh"> {t('batches.who', { ref: r.bizBatchNo })}</span>
              </button>
              {props.canReject && (
                <button type="button" class="secondary" onClick={() => props.reject()}>
                  {t('batches.reject')}
                  <span class="vh"> {t('batches.who', { ref: r.bizBatchNo })}</span>
                </button>
              )}
            </div>
          </form>
        )}
      </td>
    </tr>
  );
}

function Upload(props: { api: ReturnType<typeof batchesApi>; onRequested(ref: string): void }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const [errors, setErrors] = useState<{ file?: string; ref?: string }>({});
  const [error, setError] = useState<unknown>();
  const [checked, setChecked] = useState<{ check: FileCheck; csv: string; ref: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const problemText = (p: { column: string; problem: string }) =>
    t(`batches.problem.${p.problem}`, { column: p.column });
  const bad = checked ? checked.check.rows.filter((r) => r.errors.length > 0).length : 0;

  return (
    <section aria-labelledby="batch-upload-heading">
      <h2 id="batch-upload-heading">{t('batches.upload')}</h2>
      {error !== undefined && <ErrorNotice error={error} />}
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const file = data.get('file');
          const ref = String(data.get('bizBatchNo') ?? '').trim();
          const found = {
            ...(file instanceof File && file.size > 0 ? {} : { file: t('batches.needFile') }),
            ...(ref ? {} : { ref: t('batches.needRef') }),
          };
          setErrors(found);
          if (Object.keys(found).length || !(file instanceof File)) return;
          setError(undefined);
          setChecked(null);
          setBusy(true);
          try {
            const csv = await file.text();
            const answer = await props.api.check(csv);
            if ('done' in answer) setChecked({ check: answer.done, csv, ref });
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for="batch-file">{t('batches.file')}</label>
          <input
            id="batch-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={errors.file ? 'batch-file-error' : undefined}
          />
          {errors.file && (
            <p class="field-error" id="batch-file-error">
              {errors.file}
            </p>
          )}
        </div>
        <Field
          label={t('batches.bizBatchNo')}
          hint={t('batches.bizBatchNoHint')}
          name="bizBatchNo"
          autocomplete="off"
          maxLength={100}
          error={errors.ref}
        />
        <div>
          <button type="submit" disabled={busy}>
            {t('batches.check')}
          </button>
        </div>
      </form>
      {checked && (
        <section aria-labelledby="batch-review-heading">
          <h3 id="batch-review-heading">{t('batches.review')}</h3>
          {checked.check.problems.map((p) => (
            <Notice key={`${p.problem}-${p.column ?? ''}`} kind="error">
              {t(`batches.file.${p.problem}`, { column: p.column ?? '' })}
            </Notice>
          ))}
          {checked.check.rows.length > 0 && (
            <p>
              {checked.check.ok
                ? t('batches.summary', {
                    count: checked.check.count,
                    amount: formatMoney(checked.check.amount, lang),
                  })
                : t('batches.summaryBad', { count: checked.check.count })}
            </p>
          )}
          {checked.check.rows.length > 0 &&
            (checked.check.ok ? (
              <Notice kind="ok">{t('batches.allGood')}</Notice>
            ) : (
              <Notice kind="error">{t('batches.hasErrors', { n: bad })}</Notice>
            ))}
          {checked.check.rows.length > 0 && (
            <TableRegion label={t('batches.rows')}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('batches.line')}</th>
                    <th scope="col">{t('batches.ref')}</th>
                    <th scope="col">{t('batches.payee')}</th>
                    <th scope="col">{t('batches.account')}</th>
                    <th scope="col">{t('batches.amount')}</th>
                    <th scope="col">{t('batches.result')}</th>
                  </tr>
                </thead>
                <tbody>
                  {checked.check.rows.map((r) => (
                    <tr key={r.line}>
                      <th scope="row">{r.line}</th>
                      <td>{r.cells.bizTransferNo}</td>
                      <td>{r.cells.payeeName}</td>
                      <td class="long">
                        <code>{r.cells.payeeAccount}</code>
                      </td>
                      <td class="nowrap">{r.item ? formatMoney(r.item.amount, lang) : r.cells.amount}</td>
                      <td>
                        {r.errors.length === 0 ? (
                          <span class="badge good">{t('batches.rowOk')}</span>
                        ) : (
                          <ul class="errors">
                            {r.errors.map((e) => (
                              <li key={`${e.column}-${e.problem}`}>{problemText(e)}</li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
          {checked.check.ok && may(MAY.create) && (
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                setError(undefined);
                try {
                  await props.api.request(checked.ref, checked.csv);
                  setChecked(null);
                  props.onRequested(checked.ref);
                } catch (err) {
                  setError(err);
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t('batches.request')}
            </button>
          )}
        </section>
      )}
    </section>
  );
}
