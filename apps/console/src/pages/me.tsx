import {
  defineDictionaries,
  ErrorNotice,
  Field,
  formatDateTime,
  Loading,
  Notice,
  Page,
  TableRegion,
  useI18n,
  useResource,
} from '@agentpay/ui';
import { useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { meApi, TOKEN_MAX_DAYS } from './me.api';
import { RoleChoices } from './people';

// My account (CONTRACT section 17 "Sessions", "Tokens"; section 18 "my sessions and tokens"): the sessions I
// hold, each ended with one button; my personal tokens, made with roles within mine (the secret shown once)
// and revoked.

export const meMessages = defineDictionaries(
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
    'me.endSession': 'la sesión iniciada el {at}',
    'me.ended': 'Sesión terminada.',
    'me.tokens': 'Mis tokens personales',
    'me.tokensHelp':
      'Un token actúa como tú, con los roles que elijas de los tuyos, desde un script o la línea de comandos.',
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
    'me.endSession': 'the session started {at}',
    'me.ended': 'Session ended.',
    'me.tokens': 'My personal tokens',
    'me.tokensHelp':
      'A token acts as you, with the roles you choose from yours, from a script or the command line.',
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

export function MePage(props: PageContext) {
  const { t } = useI18n();
  const api = meApi(props.api.client);
  const me = useResource(() => api.me(), []);
  return (
    <Page title={t('me.title')}>
      {me.error !== undefined && <ErrorNotice error={me.error} />}
      {me.data && (
        <p>
          <strong>{me.data.name ?? me.data.label}</strong> {me.data.email && <span>({me.data.email})</span>}
          <br />
          {t('me.roles', { roles: me.data.roles.map((r) => t(`role.${r}`)).join(', ') })}
        </p>
      )}
      <Sessions api={api} />
      <Tokens api={api} myRoles={me.data?.userId ? me.data.roles : undefined} />
    </Page>
  );
}

type MeApi = ReturnType<typeof meApi>;

function Sessions(props: { api: MeApi }) {
  const { t, lang } = useI18n();
  const sessions = useResource(() => props.api.sessions(), []);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
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
                      <span class="vh"> {t('me.endSession', { at: formatDateTime(s.createdAt, lang) })}</span>
                    </button>
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

function Tokens(props: { api: MeApi; myRoles: readonly string[] | undefined }) {
  const { t, lang } = useI18n();
  const tokens = useResource(() => props.api.tokens(), []);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [errors, setErrors] = useState<{ name?: string; roles?: string; days?: string }>({});

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
                  <td>{k.roles.map((r) => t(`role.${r}`)).join(', ')}</td>
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
                        <span class="vh"> {k.name}</span>
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
              try {
                const answer = await props.api.createToken({ name, roles, expiresInDays: days });
                if ('done' in answer) {
                  setCreated({ name, token: answer.done.token });
                  form.reset();
                  tokens.reload();
                }
              } catch (error) {
                setOutcome({ error });
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
            <RoleChoices
              legend={t('me.tokenRoles')}
              roles={props.myRoles}
              checked={props.myRoles}
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
              <button type="submit">{t('me.create')}</button>
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
