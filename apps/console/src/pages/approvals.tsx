import {
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  Loading,
  Notice,
  Page,
  Pager,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useId, useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { type Approval, type ApprovalsApi, approvalsApi } from './approvals.api';

// Four eyes in the console (CONTRACT sections 17 and 18): what waits for my approval and what I asked for,
// each with what is asked, by whom and when; approve or reject with a reason. The server never lets a person
// approve their own request; this page does not offer it either, nor what the person's roles may not do.

export const approvalsMessages = defineDictionaries(
  {
    'nav.approvals': 'Aprobaciones',
    'approvals.title': 'Aprobaciones',
    'approvals.waiting': 'Esperando mi aprobación',
    'approvals.mine': 'Lo que pedí',
    'approvals.one': 'Solicitud {id}',
    'approvals.none': 'Nada pendiente.',
    'approvals.noneMine': 'No has pedido nada.',
    'approvals.target': 'Sobre',
    'approvals.summary': 'Qué se pide',
    'approvals.requestedBy': 'Pidió',
    'approvals.requestedAt': 'Cuándo',
    'approvals.expiresAt': 'Vence',
    'approvals.state': 'Estado',
    'approvals.decidedBy': 'Decidió',
    'approvals.decidedAt': 'Decidido',
    'approvals.reason': 'Motivo',
    'approvals.result': 'Resultado',
    'approvals.resultStatus': 'respuesta {status}',
    'approvals.id': 'Número',
    'approvals.decisionReason': 'Motivo de la decisión',
    'approvals.decisionHint': 'Obligatorio; queda en la bitácora con tu nombre.',
    'approvals.reasonRequired': 'Escribe el motivo.',
    'approvals.approve': 'Aprobar',
    'approvals.reject': 'Rechazar',
    'approvals.withdraw': 'Retirar mi solicitud',
    'approvals.own': 'Tú la pediste: la aprueba otra persona.',
    'approvals.approved': 'Aprobada: {state}.',
    'approvals.failed': 'Aprobada, pero la acción fue rechazada: {message}',
    'approvals.rejected': 'Rechazada.',
    'approvals.state.pending': 'Pendiente',
    'approvals.state.approved': 'Aprobada, ejecutándose',
    'approvals.state.rejected': 'Rechazada',
    'approvals.state.expired': 'Vencida',
    'approvals.state.executed': 'Ejecutada',
    'approvals.state.failed': 'Falló al ejecutarse',
    'approvals.action.discrepancy.resolve': 'Resolver una discrepancia',
    'approvals.action.adjustment.create': 'Ajustar el saldo de un comercio',
    'approvals.action.merchant.update': 'Cambiar un comercio',
    'approvals.action.route.create': 'Crear una ruta',
    'approvals.action.route.update': 'Cambiar una ruta',
    'approvals.action.route.merchants.set': 'Cambiar los comercios de una ruta',
    'approvals.action.route.merchant.bind': 'Agregar un comercio a una ruta',
    'approvals.action.route.merchant.unbind': 'Quitar un comercio de una ruta',
  },
  {
    'nav.approvals': 'Approvals',
    'approvals.title': 'Approvals',
    'approvals.waiting': 'Waiting for me',
    'approvals.mine': 'I asked for',
    'approvals.one': 'Request {id}',
    'approvals.none': 'Nothing waiting.',
    'approvals.noneMine': 'You have asked for nothing.',
    'approvals.target': 'About',
    'approvals.summary': 'What is asked',
    'approvals.requestedBy': 'Asked by',
    'approvals.requestedAt': 'When',
    'approvals.expiresAt': 'Expires',
    'approvals.state': 'State',
    'approvals.decidedBy': 'Decided by',
    'approvals.decidedAt': 'Decided',
    'approvals.reason': 'Reason',
    'approvals.result': 'Result',
    'approvals.resultStatus': 'answer {status}',
    'approvals.id': 'Number',
    'approvals.decisionReason': 'Reason for the decision',
    'approvals.decisionHint': 'Required; it stays in the audit log under your name.',
    'approvals.reasonRequired': 'Write the reason.',
    'approvals.approve': 'Approve',
    'approvals.reject': 'Reject',
    'approvals.withdraw': 'Withdraw my request',
    'approvals.own': 'You asked for it: another person approves it.',
    'approvals.approved': 'Approved: {state}.',
    'approvals.failed': 'Approved, but the action was refused: {message}',
    'approvals.rejected': 'Rejected.',
    'approvals.state.pending': 'Pending',
    'approvals.state.approved': 'Approved, executing',
    'approvals.state.rejected': 'Rejected',
    'approvals.state.expired': 'Expired',
    'approvals.state.executed': 'Executed',
    'approvals.state.failed': 'Failed on execution',
    'approvals.action.discrepancy.resolve': 'Resolve a discrepancy',
    'approvals.action.adjustment.create': "Adjust a merchant's balance",
    'approvals.action.merchant.update': 'Change a merchant',
    'approvals.action.route.create': 'Create a route',
    'approvals.action.route.update': 'Change a route',
    'approvals.action.route.merchants.set': "Change a route's merchants",
    'approvals.action.route.merchant.bind': 'Add a merchant to a route',
    'approvals.action.route.merchant.unbind': 'Remove a merchant from a route',
  },
);

const STATE_BADGE: Record<string, string> = {
  pending: 'muted',
  approved: 'muted',
  executed: 'good',
  rejected: 'bad',
  expired: 'bad',
  failed: 'bad',
};

/** What waits for me and what I asked for; `?id=` shows one request first (a discrepancy links here). */
export function ApprovalsPage(ctx: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const api = useMemo(() => approvalsApi(ctx.api.client), [ctx.api]);
  const { query } = ctx.router.useLocation();
  const focus = query.get('id') ?? '';
  const waitingBefore = query.get('waiting') ?? '';
  const mineBefore = query.get('mine') ?? '';
  const [tick, setTick] = useState(0);
  // The decision's outcome lives here, not in its card: a decided request leaves "waiting for me".
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const decided = (next: Outcome) => {
    setOutcome(next);
    setTick((n) => n + 1);
  };
  const decides = may('POST /admin/approvals/:id/approve');
  const one = useResource(async () => (focus ? api.one(focus) : undefined), [focus, tick]);
  const waiting = useResource(
    async () => (decides ? api.list('waiting', { before: waitingBefore }) : undefined),
    [decides, waitingBefore, tick],
  );
  const mine = useResource(() => api.list('requested', { before: mineBefore }), [mineBefore, tick]);
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    ctx.router.navigate(`approvals${next.size ? `?${next}` : ''}`);
  };
  // The requester's id is the actor's (`user:<uuid>`): until it is known, no decision is offered.
  const me = useResource(() => api.me(), []).data?.id;

  return (
    <Page title={t('approvals.title')}>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.bad && <Notice kind="error">{outcome.bad}</Notice>}
      {focus && (
        <section aria-labelledby="approval-focus">
          <h2 id="approval-focus">{t('approvals.one', { id: focus })}</h2>
          {one.loading && !one.data && <Loading />}
          {one.error !== undefined && <ErrorNotice error={one.error} />}
          {one.data && <ApprovalCard approval={one.data} api={api} me={me} ctx={ctx} onDecided={decided} />}
        </section>
      )}

      {decides && (
        <section aria-labelledby="approvals-waiting">
          <h2 id="approvals-waiting">{t('approvals.waiting')}</h2>
          {waiting.loading && !waiting.data && <Loading />}
          {waiting.error !== undefined && <ErrorNotice error={waiting.error} />}
          {waiting.data && waiting.data.items.length === 0 && <p>{t('approvals.none')}</p>}
          {waiting.data && waiting.data.items.length > 0 && (
            <ul class="cards">
              {waiting.data.items.map((a) => (
                <li key={a.id}>
                  <ApprovalCard approval={a} api={api} me={me} ctx={ctx} onDecided={decided} />
                </li>
              ))}
            </ul>
          )}
          <Pager
            next={waiting.data?.next}
            onNext={(next) => go({ id: focus, mine: mineBefore, waiting: next })}
            onFirst={waitingBefore ? () => go({ id: focus, mine: mineBefore }) : undefined}
          />
        </section>
      )}

      <section aria-labelledby="approvals-mine">
        <h2 id="approvals-mine">{t('approvals.mine')}</h2>
        {mine.loading && !mine.data && <Loading />}
        {mine.error !== undefined && <ErrorNotice error={mine.error} />}
        {mine.data && mine.data.items.length === 0 && <p>{t('approvals.noneMine')}</p>}
        {mine.data && mine.data.items.length > 0 && (
          <ul class="cards">
            {mine.data.items.map((a) => (
              <li key={a.id}>
                <ApprovalCard approval={a} api={api} me={me} ctx={ctx} onDecided={decided} />
              </li>
            ))}
          </ul>
        )}
        <Pager
          next={mine.data?.next}
          onNext={(next) => go({ id: focus, waiting: waitingBefore, mine: next })}
          onFirst={mineBefore ? () => go({ id: focus, waiting: waitingBefore }) : undefined}
        />
      </section>
    </Page>
  );
}

interface Outcome {
  ok?: string;
  bad?: string;
}

function actionLabel(t: (key: string) => string, action: string): string {
  const text = t(`approvals.action.${action}`);
  return text === `approvals.action.${action}` ? action : text;
}

/** One request: what is asked, by whom and when, how it ended; the decision when this person may take it. */
function ApprovalCard(props: {
  approval: Approval;
  api: ApprovalsApi;
  me: string | undefined;
  ctx: PageContext;
  onDecided(outcome: Outcome): void;
}) {
  const { t, lang } = useI18n();
  const may = useMay();
  const id = useId();
  const a = props.approval;
  const { Link } = props.ctx.router;
  const known = props.me !== undefined;
  const own = known && a.requestedBy.id === props.me;
  const mayApprove = known && !own && may('POST /admin/approvals/:id/approve');
  // Rejecting: an approver rejects others' requests; whoever asked may withdraw their own.
  const mayReject = known && may('POST /admin/approvals/:id/reject') && (own || mayApprove);
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const discrepancy = a.target.startsWith('discrepancy:') ? a.target.slice('discrepancy:'.length) : '';
  const resultMessage = (body: unknown) => {
    const message = (body as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : JSON.stringify(body ?? {});
  };

  return (
    <article class="card" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{actionLabel(t, a.action)}</h3>
      <dl class="facts wrap">
        <dt>{t('approvals.summary')}</dt>
        <dd>{a.summary}</dd>
        <dt>{t('approvals.target')}</dt>
        <dd>
          {discrepancy && may('GET /admin/discrepancies/:id') ? (
            <Link to={`reconciliation/${encodeURIComponent(discrepancy)}`}>{a.target}</Link>
          ) : (
            a.target
          )}
        </dd>
        <dt>{t('approvals.requestedBy')}</dt>
        <dd>{a.requestedBy.label}</dd>
        <dt>{t('approvals.requestedAt')}</dt>
        <dd>{formatDateTime(a.requestedAt, lang)}</dd>
        <dt>{t('approvals.state')}</dt>
        <dd>
          <span class={`badge ${STATE_BADGE[a.state] ?? 'muted'}`}>{t(`approvals.state.${a.state}`)}</span>
        </dd>
        {a.state === 'pending' && (
          <>
            <dt>{t('approvals.expiresAt')}</dt>
            <dd>{formatDateTime(a.expiresAt, lang)}</dd>
          </>
        )}
        {a.decidedBy && (
          <>
            <dt>{t('approvals.decidedBy')}</dt>
            <dd>
              {a.decidedBy.label} · {formatDateTime(a.decidedAt, lang)}
            </dd>
          </>
        )}
        {a.reason && (
          <>
            <dt>{t('approvals.reason')}</dt>
            <dd>{a.reason}</dd>
          </>
        )}
        {a.result && (
          <>
            <dt>{t('approvals.result')}</dt>
            <dd>
              {t('approvals.resultStatus', { status: a.result.status })}
              {a.result.status >= 400 && `: ${resultMessage(a.result.body)}`}
            </dd>
          </>
        )}
        <dt>{t('approvals.id')}</dt>
        <dd>
          <code>{a.id}</code>
        </dd>
      </dl>
      {error !== undefined && <ErrorNotice error={error} />}
      {a.state === 'pending' && own && !mayReject && <p>{t('approvals.own')}</p>}
      {a.state === 'pending' && (mayApprove || mayReject) && (
        <form
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            const submitter = (event as unknown as SubmitEvent).submitter as HTMLButtonElement | null;
            const decision = submitter?.value === 'approve' ? 'approve' : 'reject';
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
            if (!reason) {
              setReasonError(t('approvals.reasonRequired'));
              return;
            }
            setReasonError(undefined);
            setBusy(true);
            setError(undefined);
            try {
              const answer =
                decision === 'approve'
                  ? await props.api.approve(a.id, reason)
                  : await props.api.reject(a.id, reason);
              let outcome: Outcome = {};
              if ('done' in answer) {
                const after = answer.done.approval;
                if (decision === 'reject') outcome = { ok: t('approvals.rejected') };
                else if (after.state === 'failed')
                  outcome = { bad: t('approvals.failed', { message: resultMessage(after.result?.body) }) };
                else
                  outcome = { ok: t('approvals.approved', { state: t(`approvals.state.${after.state}`) }) };
              }
              props.onDecided(outcome);
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          {own && <p>{t('approvals.own')}</p>}
          <div class="field">
            <label for={`${id}-reason`}>{t('approvals.decisionReason')}</label>
            <p class="hint" id={`${id}-hint`}>
              {t('approvals.decisionHint')}
            </p>
            <textarea
              id={`${id}-reason`}
              name="reason"
              rows={2}
              maxLength={500}
              required
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={`${id}-hint${reasonError ? ` ${id}-error` : ''}`}
            />
            {reasonError && (
              <p class="field-error" id={`${id}-error`}>
                {reasonError}
              </p>
            )}
          </div>
          <div class="actions">
            {mayApprove && (
              <button type="submit" name="decision" value="approve" disabled={busy}>
                {t('approvals.approve')}
              </button>
            )}
            {mayReject && (
              <button type="submit" name="decision" value="reject" class="secondary" disabled={busy}>
                {own ? t('approvals.withdraw') : t('approvals.reject')}
              </button>
            )}
          </div>
        </form>
      )}
    </article>
  );
}
