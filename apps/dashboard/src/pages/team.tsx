import {
  CheckboxChoices,
  defineDictionaries,
  ErrorNotice,
  Field,
  formatDateTime,
  Loading,
  Notice,
  Page,
  TableRegion,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { MERCHANT_ROLES, type TeamMember, teamApi } from './team.api';

// The merchant's team (CONTRACT section 17 "Merchant people"): who has access and with which roles, an
// invitation (the link is shown once, for the inviter to pass on), a change of roles, disabling or enabling
// someone. Owners and admins manage the team; only an owner grants or takes the owner role.

export const teamMessages = defineDictionaries(
  {
    'nav.team': 'Equipo',
    'team.title': 'Equipo',
    'team.notAllowed': 'Tu rol no permite ver el equipo. Pide acceso a un propietario o administrador.',
    'team.list': 'Personas del comercio',
    'team.name': 'Nombre',
    'team.email': 'Correo',
    'team.roles': 'Roles',
    'team.status': 'Estado',
    'team.since': 'Alta',
    'team.enabled': 'Activa',
    'team.disabled': 'Deshabilitada',
    'team.pending': 'Invitación pendiente',
    'team.locked': 'Bloqueada',
    'team.you': 'Tú',
    'team.edit': 'Cambiar',
    'team.editWho': 'a {name}',
    'team.editTitle': 'Cambiar a {name}',
    'team.save': 'Guardar roles',
    'team.disable': 'Deshabilitar',
    'team.enable': 'Habilitar',
    'team.close': 'Cerrar',
    'team.savedOk': 'Cambios guardados para {name}.',
    'team.invite': 'Invitar a una persona',
    'team.inviteHelp':
      'Recibirá un enlace para crear su contraseña y configurar su app autenticadora. El enlace vale 72 horas y un solo uso.',
    'team.inviteName': 'Nombre',
    'team.inviteEmail': 'Correo electrónico',
    'team.inviteRoles': 'Roles',
    'team.inviteSubmit': 'Invitar',
    'team.needName': 'Escribe su nombre.',
    'team.needEmail': 'Escribe un correo válido.',
    'team.needRole': 'Elige al menos un rol.',
    'team.invitedOk': 'Invitación creada para {email}. Envíale este enlace; no se vuelve a mostrar:',
    'team.inviteLink': 'Enlace de invitación',
    'team.role.owner': 'Propietario',
    'team.role.admin': 'Administrador',
    'team.role.finance': 'Finanzas',
    'team.role.viewer': 'Consulta',
    'team.roleHelp':
      'Propietario: todo. Administrador: equipo, llaves y notificaciones. Finanzas: saldos, estados de cuenta y exportaciones. Consulta: solo ver.',
  },
  {
    'nav.team': 'Team',
    'team.title': 'Team',
    'team.notAllowed': 'Your role does not allow seeing the team. Ask an owner or an admin for access.',
    'team.list': "The merchant's people",
    'team.name': 'Name',
    'team.email': 'Email',
    'team.roles': 'Roles',
    'team.status': 'Status',
    'team.since': 'Since',
    'team.enabled': 'Active',
    'team.disabled': 'Disabled',
    'team.pending': 'Invitation pending',
    'team.locked': 'Locked',
    'team.you': 'You',
    'team.edit': 'Change',
    'team.editWho': '{name}',
    'team.editTitle': 'Change {name}',
    'team.save': 'Save roles',
    'team.disable': 'Disable',
    'team.enable': 'Enable',
    'team.close': 'Close',
    'team.savedOk': 'Changes saved for {name}.',
    'team.invite': 'Invite a person',
    'team.inviteHelp':
      'They get a link to set a password and their authenticator app. The link is valid for 72 hours and works once.',
    'team.inviteName': 'Name',
    'team.inviteEmail': 'Email',
    'team.inviteRoles': 'Roles',
    'team.inviteSubmit': 'Invite',
    'team.needName': 'Enter their name.',
    'team.needEmail': 'Enter a valid email.',
    'team.needRole': 'Choose at least one role.',
    'team.invitedOk': 'Invitation made for {email}. Send them this link; it is not shown again:',
    'team.inviteLink': 'Invitation link',
    'team.role.owner': 'Owner',
    'team.role.admin': 'Admin',
    'team.role.finance': 'Finance',
    'team.role.viewer': 'Viewer',
    'team.roleHelp':
      'Owner: everything. Admin: team, keys and callbacks. Finance: balances, statements and exports. Viewer: read only.',
  },
);

/** The merchant roles this person may grant (`allowed`) as checkboxes sent as the form field `name`. */
function RoleChoices(props: {
  legend: string;
  name: string;
  allowed: readonly string[];
  checked: readonly string[];
  error?: string | undefined;
}) {
  const { t } = useI18n();
  return (
    <CheckboxChoices
      legend={props.legend}
      name={props.name}
      values={MERCHANT_ROLES.filter((role) => props.allowed.includes(role))}
      labelOf={(role) => t(`team.role.${role}`)}
      checked={props.checked}
      error={props.error}
    />
  );
}

const rolesIn = (form: HTMLFormElement, name: string) => new FormData(form).getAll(name).map(String);

export function TeamPage(props: PageContext) {
  const { t } = useI18n();
  const api = teamApi(props.api.client);
  // What this person may do, read before the list, so a role without the team is told so, not refused.
  const me = useResource(() => api.me(), []);
  const canRead = me.data?.may.includes('GET /dashboard/api/users') ?? false;
  const may = useMay();
  const list = useResource(async () => (canRead ? api.team() : undefined), [canRead]);
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  // Only an owner grants the owner role (the API refuses anyone else).
  const grantable = me.data?.roles.includes('owner')
    ? MERCHANT_ROLES
    : MERCHANT_ROLES.filter((r) => r !== 'owner');

  if (me.data && !canRead) {
    return (
      <Page title={t('team.title')}>
        <Notice kind="info">{t('team.notAllowed')}</Notice>
      </Page>
    );
  }

  return (
    <Page title={t('team.title')}>
      <p class="hint">{t('team.roleHelp')}</p>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {(list.loading || me.loading) && !list.data && <Loading />}
      {me.error !== undefined && <ErrorNotice error={me.error} />}
      {list.error !== undefined && <ErrorNotice error={list.error} />}
      {list.data && (
        <Members
          members={list.data.users}
          myUserId={me.data?.userId}
          canChange={may('PATCH /dashboard/api/users/:id')}
          onEdit={(m) => {
            setOutcome(null);
            setEditing(m);
          }}
        />
      )}
      {editing && (
        <EditMember
          key={editing.id}
          member={editing}
          grantable={grantable}
          onClose={() => setEditing(null)}
          change={async (change) => {
            setOutcome(null);
            try {
              const result = await api.change(editing.id, change);
              if ('done' in result) setEditing(result.done);
              setOutcome({ ok: t('team.savedOk', { name: editing.name }) });
              list.reload();
            } catch (error) {
              setOutcome({ error });
            }
          }}
        />
      )}
      {may('POST /dashboard/api/users') && (
        <Invite api={api} grantable={grantable} onInvited={() => list.reload()} />
      )}
    </Page>
  );
}

function Members(props: {
  members: TeamMember[];
  myUserId: string | undefined;
  canChange: boolean;
  onEdit(member: TeamMember): void;
}) {
  const { t, lang } = useI18n();
  if (props.members.length === 0) return <p>{t('common.none')}</p>;
  return (
    <TableRegion label={t('team.list')}>
      <table class="roomy">
        <thead>
          <tr>
            <th scope="col">{t('team.name')}</th>
            <th scope="col">{t('team.email')}</th>
            <th scope="col">{t('team.roles')}</th>
            <th scope="col">{t('team.status')}</th>
            <th scope="col">{t('team.since')}</th>
            {props.canChange && (
              <th scope="col">
                <span class="vh">{t('team.edit')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.members.map((m) => (
            <tr key={m.id}>
              <th scope="row">
                {m.name}
                {m.id === props.myUserId && (
                  <>
                    {' '}
                    <span class="badge good">{t('team.you')}</span>
                  </>
                )}
              </th>
              <td>{m.email}</td>
              <td>{m.roles.map((r) => t(`team.role.${r}`)).join(', ')}</td>
              <td>
                <span class={`badge ${m.status === 'enabled' && !m.locked ? 'good' : 'muted'}`}>
                  {m.status === 'invited'
                    ? t('team.pending')
                    : m.status !== 'enabled'
                      ? t('team.disabled')
                      : m.locked
                        ? t('team.locked')
                        : t('team.enabled')}
                </span>
              </td>
              <td class="nowrap">{formatDateTime(m.createdAt, lang)}</td>
              {props.canChange && (
                <td>
                  {/* Yourself, and someone who has not accepted the invitation yet, are not changed here. */}
                  {m.id !== props.myUserId && m.status !== 'invited' && (
                    <button type="button" class="secondary" onClick={() => props.onEdit(m)}>
                      {t('team.edit')}
                      <span class="vh"> {t('team.editWho', { name: m.name })}</span>
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function EditMember(props: {
  member: TeamMember;
  grantable: readonly string[];
  onClose(): void;
  change(change: { roles: string[] } | { status: 'enabled' | 'disabled' }): Promise<void>;
}) {
  const { t } = useI18n();
  const m = props.member;
  const [roleError, setRoleError] = useState<string | undefined>();
  // An admin cannot change an owner's roles: offer what the API would accept.
  const ownerOnly = m.roles.includes('owner') && !props.grantable.includes('owner');
  return (
    <section class="card" aria-labelledby="edit-member-heading">
      <h2 id="edit-member-heading">{t('team.editTitle', { name: m.name })}</h2>
      {!ownerOnly && (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const roles = rolesIn(event.currentTarget, 'member-roles');
            if (roles.length === 0) return setRoleError(t('team.needRole'));
            setRoleError(undefined);
            await props.change({ roles });
          }}
        >
          <RoleChoices
            legend={t('team.roles')}
            name="member-roles"
            allowed={props.grantable}
            checked={m.roles}
            error={roleError}
          />
          <div>
            <button type="submit">{t('team.save')}</button>
          </div>
        </form>
      )}
      <div class="actions">
        {!ownerOnly && (
          <button
            type="button"
            class="secondary"
            onClick={() => props.change({ status: m.status === 'enabled' ? 'disabled' : 'enabled' })}
          >
            {m.status === 'enabled' ? t('team.disable') : t('team.enable')}
          </button>
        )}
        <button type="button" class="secondary" onClick={props.onClose}>
          {t('team.close')}
        </button>
      </div>
    </section>
  );
}

function Invite(props: { api: ReturnType<typeof teamApi>; grantable: readonly string[]; onInvited(): void }) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<{ name?: string; email?: string; roles?: string }>({});
  const [error, setError] = useState<unknown>();
  const [invited, setInvited] = useState<{ email: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t('team.invite')}</h2>
      <p class="hint">{t('team.inviteHelp')}</p>
      {invited && (
        <Notice kind="ok">
          {t('team.invitedOk', { email: invited.email })}
          <label class="vh" for="invite-link">
            {t('team.inviteLink')}
          </label>
          <input id="invite-link" class="once" readOnly value={invited.url} />
        </Notice>
      )}
      {error !== undefined && <ErrorNotice error={error} />}
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const name = String(data.get('name') ?? '').trim();
          const email = String(data.get('email') ?? '').trim();
          const roles = rolesIn(form, 'invite-roles');
          const found = {
            ...(name ? {} : { name: t('team.needName') }),
            ...(/^[^\s@]+@[^\s@]+$/.test(email) ? {} : { email: t('team.needEmail') }),
            ...(roles.length ? {} : { roles: t('team.needRole') }),
          };
          setErrors(found);
          if (Object.keys(found).length) return;
          setError(undefined);
          setBusy(true);
          try {
            const result = await props.api.invite({ name, email, roles });
            if ('done' in result) setInvited({ email, url: result.done.inviteUrl });
            form.reset();
            props.onInvited();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field
          label={t('team.inviteName')}
          name="name"
          autocomplete="off"
          maxLength={100}
          error={errors.name}
        />
        <Field
          label={t('team.inviteEmail')}
          name="email"
          type="email"
          autocomplete="off"
          maxLength={320}
          error={errors.email}
        />
        <RoleChoices
          legend={t('team.inviteRoles')}
          name="invite-roles"
          allowed={props.grantable}
          checked={[]}
          error={errors.roles}
        />
        <div>
          <button type="submit" disabled={busy}>
            {t('team.inviteSubmit')}
          </button>
        </div>
      </form>
    </section>
  );
}
