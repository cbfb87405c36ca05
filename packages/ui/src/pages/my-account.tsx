import { useState } from 'preact/hooks';
import * as z from 'zod/mini';
import type { ApiClient } from '../api';
import { CheckboxChoices, ErrorNotice, Field, Loading, Notice, Page, TableRegion } from '../components';
import { formatDateTime } from '../format';
import { defineDictionaries, useI18n } from '../i18n';
import { useResource } from '../use-resource';

// My account (CONTRACT section 17 "Sessions", "Tokens"; section 18 "my sessions and tokens"), one page for the
// console and the dashboard: the sessions I hold, each ended with one button; my personal tokens, made with
// roles within mine (the secret shown once) and revoked. What differs between the two apps is a prop.

export const me = z.object({
  id: z.string(),
  label: z.string(),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  /** Console: present for a person; absent for system:dev (ADMIN_TOKEN), which holds no sessions or tokens. */
  userId: z.optional(z.string()),
  /** Dashboard: the merchant the person belongs to. */
  mchNo: z.optional(z.string()),
  roles: z.array(z.string()),
});
export type MyAccount = z.infer<typeof me>;

export const mySession = z.object({
  id: z.string(),
  current: z.boolean(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export const mySessions = z.object({ sessions: z.array(mySession) });

export const myToken = z.object({
  id: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
  active: z.boolean(),
});
export type MyToken = z.infer<typeof myToken>;
export const myTokens = z.object({ tokens: z.array(myToken) });
export const newToken = z.object({ id: z.string(), token: z.string(), expiresAt: z.string() });

/** Days a personal token may live at most (services/gateway people-tokens.service.ts TOKEN_MAX_DAYS). */
export const TOKEN_MAX_DAYS = 90;

const gone = z.undefined();

/** The "my account" calls under `prefix`: `/admin/me` (console) or `/dashboard/api/me` (dashboard). */
export function myAccountApi(api: ApiClient, prefix: string) {
  return {
    me: () => api.get(prefix, me),
    sessions: () => api.get(`${prefix}/sessions`, mySessions),
    endSession: (id: string) =>
      api.send('DELETE', `${prefix}/sessions/${encodeURIComponent(id)}`, undefined, gone),
    tokens: () => api.get(`${prefix}/tokens`, myTokens),
    createToken: (body: { name: string; roles: string[]; expiresInDays: number }) =>
      api.send('POST', `${prefix}/tokens`, body, newToken),
    revokeToken: (id: string) =>
      api.send('DELETE', `${prefix}/tokens/${encodeURIComponent(id)}`, undefined, gone),
  };
}

type MyAccountApi = ReturnType<typeof myAccountApi>;
type Outcome = { ok?: string; error?: unknown } | null;

/** The wording each app chooses: what a token is for, and how a revoke button names its token. */
export type MyAccountWording = { tokensHelp: string; revokeWhich: string };

/** The page's messages; `es` and `en` carry the app's own wording. */
export function myAccountMessages(es: MyAccountWording, en: MyAccountWording) {
  return defineDictionaries(
    {
      'nav.me': 'Mi cuenta',
      'me.title': 'Mi cuenta',
      'me.roles': 'Tus roles: {roles}.',
      'me.sessions': 'Mis sesiones',
      'me.sessionsList': 'Sesiones abiertas',
      'me.started': 'Inicio',
      'me.lastSeen': 'Última actividad',
      'me.from': 'Desde',
      'me.browser': 'Navegador',
      'me.thisOne': 'Esta sesión',
      'me.end': 'Terminar',
      'me.endWhich': 'la sesión iniciada el {at}',
      'me.ended': 'Sesión terminada.',
      'me.tokens': 'Mis tokens personales',
      'me.tokensHelp': es.tokensHelp,
      'me.tokensList': 'Tokens personales',
      'me.tokenName': 'Nombre',
      'me.tokenRoles': 'Roles',
      'me.created': 'Creado',
      'me.expires': 'Vence',
      'me.lastUsed': 'Último uso',
      'me.state': 'Estado',
      'me.active': 'Activo',
      'me.revoked': 'Revocado',
      'me.expired': 'Vencido',
      'me.revoke': 'Revocar',
      'me.revokeWhich': es.revokeWhich,
      'me.revokedOk': 'Token revocado.',
      'me.newToken': 'Crear un token',
      'me.days': 'Días de vigencia',
      'me.daysHint': 'De 1 a {max}.',
      'me.create': 'Crear token',
      'me.needName': 'Escribe un nombre.',
      'me.needRole': 'Elige al menos un rol.',
      'me.badDays': 'Un número entero de 1 a {max}.',
      'me.secret': 'Tu token «{name}». Cópialo ahora: no se vuelve a mostrar.',
      'me.secretLabel': 'Token',
    },
    {
      'nav.me': 'My account',
      'me.title': 'My account',
      'me.roles': 'Your roles: {roles}.',
      'me.sessions': 'My sessions',
      'me.sessionsList': 'Open sessions',
      'me.started': 'Started',
      'me.lastSeen': 'Last active',
      'me.from': 'From',
      'me.browser': 'Browser',
      'me.thisOne': 'This session',
      'me.end': 'End',
      'me.endWhich': 'the session started {at}',
      'me.ended': 'Session ended.',
      'me.tokens': 'My personal tokens',
      'me.tokensHelp': en.tokensHelp,
      'me.tokensList': 'Personal tokens',
      'me.tokenName': 'Name',
      'me.tokenRoles': 'Roles',
      'me.created': 'Created',
      'me.expires': 'Expires',
      'me.lastUsed': 'Last used',
      'me.state': 'State',
      'me.active': 'Active',
      'me.revoked': 'Revoked',
      'me.expired': 'Expired',
      'me.revoke': 'Revoke',
      'me.revokeWhich': en.revokeWhich,
      'me.revokedOk': 'Token revoked.',
      'me.newToken': 'Create a token',
      'me.days': 'Days valid',
      'me.daysHint': '1 to {max}.',
      'me.create': 'Create token',
      'me.needName': 'Enter a name.',
      'me.needRole': 'Choose at least one role.',
      'me.badDays': 'A whole number from 1 to {max}.',
      'me.secret': 'Your token “{name}”. Copy it now: it is not shown again.',
      'me.secretLabel': 'Token',
    },
  );
}

export type MyAccountProps = {
  client: ApiClient;
  /** Where the calls live: `/admin/me` or `/dashboard/api/me`. */
  prefix: string;
  /** The message key naming a role, e.g. `role.` (console) or `team.role.` (dashboard). */
  roleKey: string;
  /** The roles a new token may be given, or undefined when this caller holds no tokens (system:dev). */
  tokenRoles(me: MyAccount): readonly string[] | undefined;
  /** Whether the roles of a new token start ticked. */
  rolesChecked: boolean;
  /** Whether the current session has an End button too (else it ends with "Sign out"). */
  endCurrent: boolean;
};

export function MyAccountPage(props: MyAccountProps) {
  const { t } = useI18n();
  const api = myAccountApi(props.client, props.prefix);
  const mine = useResource(() => api.me(), []);
  return (
    <Page title={t('me.title')}>
      {mine.error !== undefined && <ErrorNotice error={mine.error} />}
      {mine.data && (
        <p>
          <strong>{mine.data.name ?? mine.data.label}</strong>{' '}
          {mine.data.email && <span>({mine.data.email})</span>}
          <br />
          {t('me.roles', { roles: mine.data.roles.map((r) => t(`${props.roleKey}${r}`)).join(', ') })}
        </p>
      )}
      <Sessions api={api} endCurrent={props.endCurrent} />
      <Tokens
        api={api}
        roleKey={props.roleKey}
        rolesChecked={props.rolesChecked}
        myRoles={mine.data ? props.tokenRoles(mine.data) : undefined}
      />
    </Page>
  );
}

function Sessions(props: { api: MyAccountApi; endCurrent: boolean }) {
  const { t, lang } = useI18n();
  const sessions = useResource(() => props.api.sessions(), []);
  const [outcome, setOutcome] = useState<Outcome>(null);
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('me.sessions')}</h2>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {sessions.loading && !sessions.data && <Loading />}
      {sessions.error !== undefined && <ErrorNotice error={sessions.error} />}
      {sessions.data && sessions.data.sessions.length === 0 && <p>{t('common.none')}</p>}
      {sessions.data && sessions.data.sessions.length > 0 && (
        <TableRegion label={t('me.sessionsList')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('me.started')}</th>
                <th scope="col">{t('me.lastSeen')}</th>
                <th scope="col">{t('me.from')}</th>
                <th scope="col">{t('me.browser')}</th>
                <th scope="col">
                  <span class="vh">{t('me.end')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((s) => (
                <tr key={s.id}>
                  <td class="nowrap">
                    {formatDateTime(s.createdAt, lang)}
                    {s.current && (
                      <>
                        {' '}
                        <span class="badge good">{t('me.thisOne')}</span>
                      </>
                    )}
                  </td>
                  <td class="nowrap">{formatDateTime(s.lastSeenAt, lang)}</td>
                  <td>{s.ip}</td>
                  <td class="long">{s.userAgent}</td>
                  <td>
                    {(props.endCurrent || !s.current) && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={async () => {
                          setOutcome(null);
                          try {
                            await props.api.endSession(s.id);
                            setOutcome({ ok: t('me.ended') });
                            sessions.reload();
                          } catch (error) {
                            setOutcome({ error });
                          }
                        }}
                      >
                        {t('me.end')}
                        <span class="vh"> {t('me.endWhich', { at: formatDateTime(s.createdAt, lang) })}</span>
                      </button>
                    )}
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

function Tokens(props: {
  api: MyAccountApi;
  roleKey: string;
  rolesChecked: boolean;
  myRoles: readonly string[] | undefined;
}) {
  const { t, lang } = useI18n();
  const tokens = useResource(() => props.api.tokens(), []);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [errors, setErrors] = useState<{ name?: string; roles?: string; days?: string }>({});
  const [busy, setBusy] = useState(false);

  const revoke = async (id: string) => {
    setOutcome(null);
    try {
      await props.api.revokeToken(id);
      setOutcome({ ok: t('me.revokedOk') });
      tokens.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">{t('me.tokens')}</h2>
      <p class="hint">{t('me.tokensHelp')}</p>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {tokens.loading && !tokens.data && <Loading />}
      {tokens.error !== undefined && <ErrorNotice error={tokens.error} />}
      {tokens.data && tokens.data.tokens.length === 0 && <p>{t('common.none')}</p>}
      {tokens.data && tokens.data.tokens.length > 0 && (
        <TableRegion label={t('me.tokensList')}>
          <table class="roomy">
            <thead>
              <tr>
                <th scope="col">{t('me.tokenName')}</th>
                <th scope="col">{t('me.tokenRoles')}</th>
                <th scope="col">{t('me.state')}</th>
                <th scope="col">{t('me.created')}</th>
                <th scope="col">{t('me.expires')}</th>
                <th scope="col">{t('me.lastUsed')}</th>
                <th scope="col">
                  <span class="vh">{t('me.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>{k.roles.map((r) => t(`${props.roleKey}${r}`)).join(', ')}</td>
                  <td>
                    <span class={`badge ${k.active ? 'good' : 'muted'}`}>
                      {k.active ? t('me.active') : k.revokedAt ? t('me.revoked') : t('me.expired')}
                    </span>
                  </td>
                  <td class="nowrap">{formatDateTime(k.createdAt, lang)}</td>
                  <td class="nowrap">{formatDateTime(k.expiresAt, lang)}</td>
                  <td class="nowrap">{formatDateTime(k.lastUsedAt, lang)}</td>
                  <td>
                    {k.active && (
                      <button type="button" class="secondary" onClick={() => revoke(k.id)}>
                        {t('me.revoke')}
                        <span class="vh"> {t('me.revokeWhich', { name: k.name })}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}

      {props.myRoles && props.myRoles.length > 0 && (
        <section aria-labelledby="new-token-heading">
          <h3 id="new-token-heading">{t('me.newToken')}</h3>
          <form
            noValidate
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const data = new FormData(form);
              const name = String(data.get('name') ?? '').trim();
              const roles = data.getAll('roles').map(String);
              const days = Number(data.get('days'));
              const found = {
                ...(!name && { name: t('me.needName') }),
                ...(roles.length === 0 && { roles: t('me.needRole') }),
                ...(!(Number.isInteger(days) && days >= 1 && days <= TOKEN_MAX_DAYS) && {
                  days: t('me.badDays', { max: TOKEN_MAX_DAYS }),
                }),
              };
              setErrors(found);
              if (Object.keys(found).length > 0) return;
              setOutcome(null);
              setCreated(null);
              setBusy(true);
              try {
                const answer = await props.api.createToken({ name, roles, expiresInDays: days });
                if ('done' in answer) {
                  setCreated({ name, token: answer.done.token });
                  form.reset();
                  tokens.reload();
                }
              } catch (error) {
                setOutcome({ error });
              } finally {
                setBusy(false);
              }
            }}
          >
            <Field
              label={t('me.tokenName')}
              name="name"
              autoComplete="off"
              maxLength={100}
              error={errors.name}
            />
            <CheckboxChoices
              legend={t('me.tokenRoles')}
              name="roles"
              values={props.myRoles}
              labelOf={(role) => t(`${props.roleKey}${role}`)}
              checked={props.rolesChecked ? props.myRoles : undefined}
              error={errors.roles}
            />
            <Field
              label={t('me.days')}
              hint={t('me.daysHint', { max: TOKEN_MAX_DAYS })}
              name="days"
              type="number"
              min={1}
              max={TOKEN_MAX_DAYS}
              step={1}
              defaultValue="30"
              class="short"
              error={errors.days}
            />
            <div>
              <button type="submit" disabled={busy}>
                {t('me.create')}
              </button>
            </div>
          </form>
          {created && (
            <Notice kind="ok">
              <p>{t('me.secret', { name: created.name })}</p>
              <label for="new-token-secret">{t('me.secretLabel')}</label>
              <input id="new-token-secret" class="once" readOnly value={created.token} />
            </Notice>
          )}
        </section>
      )}
    </section>
  );
}
