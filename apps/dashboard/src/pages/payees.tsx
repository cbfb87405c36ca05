import {
  defineDictionaries,
  ErrorNotice,
  Field,
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
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { MAY, type NewPayee, PAYEE_TYPES, type Payee, payeesApi } from './payees.api';

// Registered payees (CONTRACT section 19): with "registered payees only" on (the settings page), a transfer
// goes only to a payee registered here or through the merchant API and usable. A new payee waits (cooling)
// until its usable time, or until a second owner or admin approves it here; the person who registered it is
// not offered the approval (and the API refuses it). Removing is immediate.

export const payeesMessages = defineDictionaries(
  {
    'nav.payees': 'Beneficiarios',
    'payees.title': 'Beneficiarios',
    'payees.intro':
      'Con «solo beneficiarios registrados» encendido (en Controles), una transferencia solo va a un beneficiario registrado y usable; si no, se rechaza con el código 40009. Un beneficiario nuevo queda en espera hasta su hora de uso, o hasta que otra persona propietaria o administradora lo apruebe aquí.',
    'payees.list': 'Beneficiarios registrados',
    'payees.name': 'Nombre',
    'payees.account': 'Cuenta',
    'payees.status': 'Estado',
    'payees.usableAt': 'Usable desde',
    'payees.registeredBy': 'Registró',
    'payees.actions': 'Acciones',
    'payees.byApi': 'API firmada',
    'payees.byYou': 'Tú',
    'payees.byPerson': 'Otra persona',
    'payees.status.cooling': 'En espera',
    'payees.status.usable': 'Usable',
    'payees.status.removed': 'Quitado',
    'payees.approve': 'Aprobar',
    'payees.remove': 'Quitar',
    'payees.who': 'a {name}',
    'payees.approvedOk': '{name} aprobado: ya es usable.',
    'payees.removedOk': '{name} quitado.',
    'payees.yoursWaits': 'Lo registraste tú: otra persona lo aprueba.',
    'payees.register': 'Registrar un beneficiario',
    'payees.registerHelp':
      'Queda en espera hasta su hora de uso; otra persona propietaria o administradora puede aprobarlo antes.',
    'payees.type': 'Tipo de cuenta',
    'payees.type.spei_transfer': 'CLABE (SPEI)',
    'payees.type.bank_card': 'Tarjeta de débito',
    'payees.type.user_id': 'ID de usuario',
    'payees.type.login_name': 'Usuario',
    'payees.type.open_id': 'Open ID',
    'payees.newAccount': 'Cuenta',
    'payees.newAccountHint': 'Para una CLABE, sus 18 dígitos.',
    'payees.newName': 'Nombre del beneficiario',
    'payees.newCode': 'Clave del banco (opcional)',
    'payees.newCodeHint': 'La clave de la institución de Banxico, si la sabes.',
    'payees.submit': 'Registrar',
    'payees.needName': 'Escribe el nombre del beneficiario.',
    'payees.needAccount': 'Escribe la cuenta.',
    'payees.needClabe': 'Una CLABE tiene 18 dígitos.',
    'payees.registeredOk': '{name} registrado; usable desde {at}.',
    'payees.alreadyOk': '{name} ya estaba registrado; usable desde {at}.',
  },
  {
    'nav.payees': 'Payees',
    'payees.title': 'Payees',
    'payees.intro':
      'With "registered payees only" on (in Controls), a transfer goes only to a registered, usable payee; otherwise it is refused with code 40009. A new payee waits until its usable time, or until another owner or admin approves it here.',
    'payees.list': 'Registered payees',
    'payees.name': 'Name',
    'payees.account': 'Account',
    'payees.status': 'Status',
    'payees.usableAt': 'Usable from',
    'payees.registeredBy': 'Registered by',
    'payees.actions': 'Actions',
    'payees.byApi': 'Signed API',
    'payees.byYou': 'You',
    'payees.byPerson': 'Another person',
    'payees.status.cooling': 'Waiting',
    'payees.status.usable': 'Usable',
    'payees.status.removed': 'Removed',
    'payees.approve': 'Approve',
    'payees.remove': 'Remove',
    'payees.who': '{name}',
    'payees.approvedOk': '{name} approved: usable now.',
    'payees.removedOk': '{name} removed.',
    'payees.yoursWaits': 'You registered it: another person approves it.',
    'payees.register': 'Register a payee',
    'payees.registerHelp': 'It waits until its usable time; another owner or admin may approve it sooner.',
    'payees.type': 'Account type',
    'payees.type.spei_transfer': 'CLABE (SPEI)',
    'payees.type.bank_card': 'Debit card',
    'payees.type.user_id': 'User ID',
    'payees.type.login_name': 'Login name',
    'payees.type.open_id': 'Open ID',
    'payees.newAccount': 'Account',
    'payees.newAccountHint': 'For a CLABE, its 18 digits.',
    'payees.newName': "Payee's name",
    'payees.newCode': 'Bank code (optional)',
    'payees.newCodeHint': "The Banxico institution's code, if you know it.",
    'payees.submit': 'Register',
    'payees.needName': "Enter the payee's name.",
    'payees.needAccount': 'Enter the account.',
    'payees.needClabe': 'A CLABE has 18 digits.',
    'payees.registeredOk': '{name} registered; usable from {at}.',
    'payees.alreadyOk': '{name} was registered already; usable from {at}.',
  },
);

export function PayeesPage(props: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const { router } = props;
  const api = useMemo(() => payeesApi(props.api.client), [props.api]);
  const { query } = router.useLocation();
  const cursor = query.get('cursor') ?? '';
  const list = useResource(() => api.list(cursor || undefined), [cursor]);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const go = (next: string) => router.navigate(`payees${next ? `?cursor=${encodeURIComponent(next)}` : ''}`);

  const act = async (p: Payee, action: 'approve' | 'remove') => {
    setOutcome(null);
    try {
      await (action === 'approve' ? api.approve(p.payeeId) : api.remove(p.payeeId));
      setOutcome({
        ok: t(action === 'approve' ? 'payees.approvedOk' : 'payees.removedOk', { name: p.payeeName }),
      });
      list.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <Page title={t('payees.title')}>
      <p>{t('payees.intro')}</p>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {list.loading && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <TableRegion label={t('payees.list')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('payees.name')}</th>
                <th scope="col">{t('payees.account')}</th>
                <th scope="col">{t('payees.status')}</th>
                <th scope="col">{t('payees.usableAt')}</th>
                <th scope="col">{t('payees.registeredBy')}</th>
                <th scope="col">{t('payees.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((p) => (
                <tr key={p.payeeId}>
                  <th scope="row">{p.payeeName}</th>
                  <td class="long">
                    {t(`payees.type.${p.payeeType}`)}
                    <br />
                    <code>{p.payeeAccount}</code>
                    {p.payeeCode && <span class="hint"> · {p.payeeCode}</span>}
                  </td>
                  <td>
                    <span
                      class={`badge ${p.status === 'usable' ? 'good' : p.status === 'removed' ? 'muted' : 'bad'}`}
                    >
                      {t(`payees.status.${p.status}`)}
                    </span>
                  </td>
                  <td class="nowrap">{p.status === 'removed' ? '—' : formatDateTime(p.usableAt, lang)}</td>
                  <td>
                    {p.registeredByMe
                      ? t('payees.byYou')
                      : p.registeredBy === 'api'
                        ? t('payees.byApi')
                        : t('payees.byPerson')}
                  </td>
                  <td>
                    <div class="actions">
                      {p.status === 'cooling' && !p.registeredByMe && may(MAY.approve) && (
                        <button type="button" onClick={() => act(p, 'approve')}>
                          {t('payees.approve')}
                          <span class="vh"> {t('payees.who', { name: p.payeeName })}</span>
                        </button>
                      )}
                      {p.status === 'cooling' && p.registeredByMe && (
                        <span class="hint">{t('payees.yoursWaits')}</span>
                      )}
                      {p.status !== 'removed' && may(MAY.remove) && (
                        <button type="button" class="secondary" onClick={() => act(p, 'remove')}>
                          {t('payees.remove')}
                          <span class="vh"> {t('payees.who', { name: p.payeeName })}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager next={list.data?.next} onNext={go} onFirst={cursor ? () => go('') : undefined} />
      {may(MAY.register) && (
        <Register
          register={async (body) => {
            const answer = await api.register(body);
            list.reload();
            return answer;
          }}
        />
      )}
    </Page>
  );
}

function Register(props: { register(body: NewPayee): ReturnType<ReturnType<typeof payeesApi>['register']> }) {
  const { t, lang } = useI18n();
  const [errors, setErrors] = useState<{ name?: string; account?: string }>({});
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="payee-register-heading">
      <h2 id="payee-register-heading">{t('payees.register')}</h2>
      <p class="hint">{t('payees.registerHelp')}</p>
      {done && <Notice kind="ok">{done}</Notice>}
      {error !== undefined && <ErrorNotice error={error} />}
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const payeeType = String(data.get('payeeType') ?? 'spei_transfer');
          const payeeName = String(data.get('payeeName') ?? '').trim();
          const payeeAccount = String(data.get('payeeAccount') ?? '').replace(/\s+/g, '');
          const payeeCode = String(data.get('payeeCode') ?? '').trim();
          const found = {
            ...(payeeName ? {} : { name: t('payees.needName') }),
            ...(!payeeAccount
              ? { account: t('payees.needAccount') }
              : payeeType === 'spei_transfer' && !/^\d{18}$/.test(payeeAccount)
                ? { account: t('payees.needClabe') }
                : {}),
          };
          setErrors(found);
          if (Object.keys(found).length) return;
          setError(undefined);
          setDone(null);
          setBusy(true);
          try {
            const answer = await props.register({
              payeeType,
              payeeAccount,
              payeeName,
              ...(payeeCode && { payeeCode }),
            });
            if ('done' in answer) {
              const { payee, created } = answer.done;
              const at = formatDateTime(payee.usableAt, lang);
              setDone(t(created ? 'payees.registeredOk' : 'payees.alreadyOk', { name: payee.payeeName, at }));
            }
            form.reset();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for="payee-type">{t('payees.type')}</label>
          <select id="payee-type" name="payeeType">
            {PAYEE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`payees.type.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={t('payees.newAccount')}
          hint={t('payees.newAccountHint')}
          name="payeeAccount"
          autocomplete="off"
          inputMode="numeric"
          maxLength={64}
          error={errors.account}
        />
        <Field
          label={t('payees.newName')}
          name="payeeName"
          autocomplete="off"
          maxLength={100}
          error={errors.name}
        />
        <Field
          label={t('payees.newCode')}
          hint={t('payees.newCodeHint')}
          name="payeeCode"
          autocomplete="off"
          maxLength={16}
        />
        <div>
          <button type="submit" disabled={busy}>
            {t('payees.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
