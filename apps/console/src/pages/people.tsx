import {
  CheckboxChoices,
  defineDictionaries,
  ErrorNotice,
  Field,
  formatDateTime,
  Loading,
  Notice,
  Page,
  Pager,
  type PendingApproval,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import type { ConsoleApi } from '../console-api';
import { MERCHANT_ROLES, OPERATOR_ROLES, type Person, type PersonChange, peopleApi } from './people.api';

// The platform's operators (CONTRACT section 17 "Accounts", section 18 "people"): list and search, invite
// with roles (the link is shown once), change roles, disable or enable, unlock. A merchant's own people are
// invited from the merchant's page. What the person's role may not do is not offered.

export const peopleMessages = defineDictionaries(
  {
    'nav.people': 'Personas',
    'people.title': 'Personas',
    'people.list': 'Operadores',
    'people.search': 'Buscar por correo o nombre',
    'people.person': 'Persona',
    'people.roles': 'Roles',
    'people.status': 'Estado',
    'people.since': 'Alta',
    'people.actions': 'Acciones',
    'people.manage': 'Gestionar',
    'people.status.invited': 'Invitada',
    'people.status.enabled': 'Activa',
    'people.status.disabled': 'Deshabilitada',
    'people.locked': 'Bloqueada',
    'people.lockedUntil': 'Bloqueada hasta {at} por intentos fallidos.',
    'people.invite': 'Invitar a un operador',
    'people.email': 'Correo electrónico',
    'people.name': 'Nombre',
    'people.rolesHint': 'Al menos uno.',
    'people.sendInvite': 'Invitar',
    'people.invited':
      'Invitación creada para {email}. Envíale este enlace: vale 72 horas, sirve una vez y no se vuelve a mostrar.',
    'people.inviteLink': 'Enlace de invitación',
    'people.needRole': 'Elige al menos un rol.',
    'people.needEmail': 'Escribe un correo válido.',
    'people.needName': 'Escribe el nombre.',
    'people.editing': 'Gestionar a {email}',
    'people.saveRoles': 'Guardar roles',
    'people.disable': 'Deshabilitar',
    'people.disableHint': 'Deshabilitar termina al instante todas sus sesiones y tokens.',
    'people.enable': 'Habilitar',
    'people.unlock': 'Desbloquear',
    'people.close': 'Cerrar',
    'people.saved': 'Cambio guardado para {email}.',
    'people.approval': 'Solicitud enviada para aprobación ({id}).',
    'people.merchantsNote': 'Las personas de un comercio se invitan desde la página del comercio.',
    'role.owner': 'Propietario',
    'role.admin': 'Administrador',
    'role.approver': 'Aprobador',
    'role.reconciliation': 'Conciliación',
    'role.compliance': 'Cumplimiento',
    'role.support': 'Soporte',
    'role.auditor': 'Auditor',
    'role.finance': 'Finanzas',
    'role.viewer': 'Consulta',
    'people.merchantPeople': 'Personas del comercio',
    'people.merchantList': 'Personas del comercio',
    'people.merchantInvite': 'Invitar a una persona del comercio',
    'people.merchantInviteHint':
      'Entra al panel del comercio con el enlace; su propietario o administrador invita al resto.',
  },
  {
    'nav.people': 'People',
    'people.title': 'People',
    'people.list': 'Operators',
    'people.search': 'Search by email or name',
    'people.person': 'Person',
    'people.roles': 'Roles',
    'people.status': 'Status',
    'people.since': 'Since',
    'people.actions': 'Actions',
    'people.manage': 'Manage',
    'people.status.invited': 'Invited',
    'people.status.enabled': 'Active',
    'people.status.disabled': 'Disabled',
    'people.locked': 'Locked',
    'people.lockedUntil': 'Locked until {at} after failed sign-ins.',
    'people.invite': 'Invite an operator',
    'people.email': 'Email',
    'people.name': 'Name',
    'people.rolesHint': 'At least one.',
    'people.sendInvite': 'Invite',
    'people.invited':
      'Invitation created for {email}. Send them this link: it lasts 72 hours, works once and is not shown again.',
    'people.inviteLink': 'Invitation link',
    'people.needRole': 'Choose at least one role.',
    'people.needEmail': 'Enter a valid email address.',
    'people.needName': 'Enter the name.',
    'people.editing': 'Manage {email}',
    'people.saveRoles': 'Save roles',
    'people.disable': 'Disable',
    'people.disableHint': 'Disabling ends all their sessions and tokens at once.',
    'people.enable': 'Enable',
    'people.unlock': 'Unlock',
    'people.close': 'Close',
    'people.saved': 'Change saved for {email}.',
    'people.approval': 'Request sent for approval ({id}).',
    'people.merchantsNote': "A merchant's people are invited from the merchant's page.",
    'role.owner': 'Owner',
    'role.admin': 'Admin',
    'role.approver': 'Approver',
    'role.reconciliation': 'Reconciliation',
    'role.compliance': 'Compliance',
    'role.support': 'Support',
    'role.auditor': 'Auditor',
    'role.finance': 'Finance',
    'role.viewer': 'Viewer',
    'people.merchantPeople': "The merchant's people",
    'people.merchantList': "The merchant's people",
    'people.merchantInvite': "Invite one of the merchant's people",
    'people.merchantInviteHint':
      "They sign in to the merchant dashboard with the link; the merchant's owner or admin invites the rest.",
  },
);

/** The operator roles as checkboxes sent as the form field `roles`. */
function RoleChoices(props: {
  legend: string;
  roles: readonly string[];
  checked?: readonly string[];
  hint?: string | undefined;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <CheckboxChoices
      legend={props.legend}
      name="roles"
      values={props.roles}
      labelOf={(role) => t(`role.${role}`)}
      checked={props.checked}
      hint={props.hint}
      error={props.error}
    />
  );
}

type Outcome = { ok?: string; error?: unknown } | null;
type Answer<T> = { done: T } | { approval: PendingApproval };

export function PeoplePage(props: PageContext) {
  const { t, lang } = useI18n();
  const may = useMay();
  const api = peopleApi(props.api.client);
  const { router } = props;
  const { query } = router.useLocation();
  const search = query.get('search') ?? '';
  const cursor = query.get('cursor') ?? '';
  const list = useResource(() => api.people({ search, cursor }), [search, cursor]);
  const [editing, setEditing] = useState<string | null>(null);
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
    router.navigate(`people${next.size ? `?${next}` : ''}`);
  };
  const canChange = may('PATCH /admin/users/:id');
  const selected = list.data?.users.find((u) => u.id === editing);

  return (
    <Page title={t('people.title')}>
      {may('POST /admin/users') && (
        <InviteForm
          title={t('people.invite')}
          roles={OPERATOR_ROLES}
          invite={api.invite}
          onInvited={list.reload}
        />
      )}
      <h2>{t('people.list')}</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          go({ search: String(new FormData(event.currentTarget).get('search') ?? '').trim() });
        }}
      >
        <div class="field">
          <label for="people-search">{t('people.search')}</label>
          <input id="people-search" name="search" type="search" defaultValue={search} maxLength={100} />
        </div>
        <button type="submit">{t('common.search')}</button>
      </form>
      {list.loading && !list.data && <Loading />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && list.data.users.length === 0 && <p>{t('common.none')}</p>}
      {list.data && list.data.users.length > 0 && (
        <TableRegion label={t('people.list')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('people.person')}</th>
                <th scope="col">{t('people.roles')}</th>
                <th scope="col">{t('people.status')}</th>
                <th scope="col">{t('people.since')}</th>
                {canChange && <th scope="col">{t('people.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.name}
                    <br />
                    <span class="hint">{u.email}</span>
                  </th>
                  <td>{u.roles.map((r) => t(`role.${r}`)).join(', ')}</td>
                  <td>
                    <StatusBadge person={u} />
                  </td>
                  <td class="nowrap">{formatDateTime(u.createdAt, lang)}</td>
                  {canChange && (
                    <td>
                      <button type="button" class="secondary" onClick={() => setEditing(u.id)}>
                        {t('people.manage')}
                        <span class="vh"> {u.email}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager
        next={list.data?.next}
        onNext={(next) => go({ search, cursor: next })}
        onFirst={cursor ? () => go({ search }) : undefined}
      />
      <p class="hint">{t('people.merchantsNote')}</p>
      {canChange && selected && (
        <ManagePerson
          key={selected.id}
          person={selected}
          change={(change) => api.change(selected.id, change)}
          onChanged={list.reload}
          onClose={() => setEditing(null)}
        />
      )}
    </Page>
  );
}

function StatusBadge(props: { person: Person }) {
  const { t } = useI18n();
  const { status, locked } = props.person;
  return (
    <>
      <span class={`badge ${status === 'enabled' ? 'good' : status === 'disabled' ? 'bad' : 'muted'}`}>
        {t(`people.status.${status}`)}
      </span>
      {locked && (
        <>
          {' '}
          <span class="badge bad">{t('people.locked')}</span>
        </>
      )}
    </>
  );
}

function InviteForm(props: {
  title: string;
  roles: readonly string[];
  invite(body: { email: string; name: string; roles: string[] }): Promise<Answer<{ inviteUrl: string }>>;
  onInvited(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [errors, setErrors] = useState<{ email?: string; name?: string; roles?: string }>({});
  const [outcome, setOutcome] = useState<{ email: string; url: string } | { error: unknown } | null>(null);
  const [busy, setBusy] = useState(false);

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{props.title}</h2>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const email = String(data.get('email') ?? '').trim();
          const name = String(data.get('name') ?? '').trim();
          const roles = data.getAll('roles').map(String);
          const found = {
            ...(!/^[^\s@]+@[^\s@]+$/.test(email) && { email: t('people.needEmail') }),
            ...(!name && { name: t('people.needName') }),
            ...(roles.length === 0 && { roles: t('people.needRole') }),
          };
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          setBusy(true);
          setOutcome(null);
          try {
            const answer = await props.invite({ email, name, roles });
            if ('done' in answer) {
              setOutcome({ email, url: answer.done.inviteUrl });
              form.reset();
              props.onInvited();
            }
          } catch (error) {
            setOutcome({ error });
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field
          label={t('people.email')}
          name="email"
          type="email"
          autoComplete="off"
          maxLength={320}
          error={errors.email}
        />
        <Field
          label={t('people.name')}
          name="name"
          type="text"
          autoComplete="off"
          maxLength={100}
          error={errors.name}
        />
        <RoleChoices
          legend={t('people.roles')}
          roles={props.roles}
          hint={t('people.rolesHint')}
          error={errors.roles}
        />
        <div>
          <button type="submit" disabled={busy}>
            {t('people.sendInvite')}
          </button>
        </div>
      </form>
      {outcome && 'url' in outcome && (
        <Notice kind="ok">
          <p>{t('people.invited', { email: outcome.email })}</p>
          <label for={`${id}-link`}>{t('people.inviteLink')}</label>
          <input id={`${id}-link`} class="once" readOnly value={outcome.url} />
        </Notice>
      )}
      {outcome && 'error' in outcome && <ErrorNotice error={outcome.error} />}
    </section>
  );
}

function ManagePerson(props: {
  person: Person;
  change(change: PersonChange): Promise<Answer<Person>>;
  onChanged(): void;
  onClose(): void;
}) {
  const { t, lang } = useI18n();
  const { person } = props;
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [roleError, setRoleError] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a row's button: the keyboard and the screen reader land on what opened.
  useEffect(() => heading.current?.focus(), []);
  const act = async (change: PersonChange) => {
    setOutcome(null);
    try {
      const answer = await props.change(change);
      setOutcome({
        ok:
          'approval' in answer
            ? t('people.approval', { id: answer.approval.id })
            : t('people.saved', { email: person.email }),
      });
      props.onChanged();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <section aria-labelledby="manage-heading">
      <h2 id="manage-heading" tabIndex={-1} ref={heading}>
        {t('people.editing', { email: person.email })}
      </h2>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      <p>
        <StatusBadge person={person} />
      </p>
      {person.locked && person.lockedUntil && (
        <p>{t('people.lockedUntil', { at: formatDateTime(person.lockedUntil, lang) })}</p>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const roles = new FormData(event.currentTarget).getAll('roles').map(String);
          setRoleError(roles.length === 0 ? t('people.needRole') : undefined);
          if (roles.length > 0) void act({ roles });
        }}
      >
        <RoleChoices
          legend={t('people.roles')}
          roles={OPERATOR_ROLES}
          checked={person.roles}
          error={roleError}
        />
        <div>
          <button type="submit">{t('people.saveRoles')}</button>
        </div>
      </form>
      <div class="actions">
        {person.status === 'disabled' ? (
          <button type="button" class="secondary" onClick={() => act({ status: 'enabled' })}>
            {t('people.enable')}
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            aria-describedby="disable-hint"
            onClick={() => act({ status: 'disabled' })}
          >
            {t('people.disable')}
          </button>
        )}
        {person.locked && (
          <button type="button" class="secondary" onClick={() => act({ unlock: true })}>
            {t('people.unlock')}
          </button>
        )}
        <button type="button" class="secondary" onClick={props.onClose}>
          {t('people.close')}
        </button>
      </div>
      {person.status !== 'disabled' && (
        <p class="hint" id="disable-hint">
          {t('people.disableHint')}
        </p>
      )}
    </section>
  );
}

/** The merchant page's people section: its team (read) and inviting one of them (the first owner, say). */
export function MerchantPeople(props: { api: ConsoleApi; mchNo: string }) {
  const { t, lang } = useI18n();
  const may = useMay();
  const api = peopleApi(props.api.client);
  const canList = may('GET /admin/merchants/:mchNo/users');
  const list = useResource(
    () => (canList ? api.merchantPeople(props.mchNo) : Promise.resolve({ users: [] })),
    [props.mchNo, canList],
  );
  if (!canList && !may('POST /admin/merchants/:mchNo/users')) return null;
  return (
    <>
      <h2>{t('people.merchantPeople')}</h2>
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {canList && list.data && list.data.users.length === 0 && <p>{t('common.none')}</p>}
      {canList && list.data && list.data.users.length > 0 && (
        <TableRegion label={t('people.merchantList')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('people.person')}</th>
                <th scope="col">{t('people.roles')}</th>
                <th scope="col">{t('people.status')}</th>
                <th scope="col">{t('people.since')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <tr key={u.id}>
                  <th scope="row">
                    {u.name}
                    <br />
                    <span class="hint">{u.email}</span>
                  </th>
                  <td>{u.roles.map((r) => t(`role.${r}`)).join(', ')}</td>
                  <td>
                    <StatusBadge person={u} />
                  </td>
                  <td class="nowrap">{formatDateTime(u.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {may('POST /admin/merchants/:mchNo/users') && (
        <>
          <p class="hint">{t('people.merchantInviteHint')}</p>
          <InviteForm
            title={t('people.merchantInvite')}
            roles={MERCHANT_ROLES}
            invite={(body) => api.inviteToMerchant(props.mchNo, body)}
            onInvited={list.reload}
          />
        </>
      )}
    </>
  );
}
