import {
  defineDictionaries,
  ErrorNotice,
  formatDateTime,
  Loading,
  Notice,
  Page,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { keysApi, type MerchantKey, PLATFORM_KEY_FILE } from './keys.api';

// API keys (CONTRACT sections 2 and 18): the merchant's public keys by fingerprint, adding one from a pasted
// PEM and revoking one (with a confirmation; never the last active one), and the platform's public key to
// download, for verifying replies and callbacks. Owners and admins change keys; every role reads them.

export const keysMessages = defineDictionaries(
  {
    'nav.keys': 'Llaves API',
    'keys.title': 'Llaves API',
    'keys.intro':
      'Firmas cada solicitud con tu llave privada; aquí registras su llave pública. Puedes tener hasta {max} llaves activas a la vez: agrega la nueva, cambia tu sistema a ella y luego revoca la anterior.',
    'keys.yours': 'Tus llaves públicas',
    'keys.list': 'Llaves públicas del comercio',
    'keys.keyTitle': 'Llave {short}',
    'keys.fingerprint': 'Huella (SHA-256)',
    'keys.status': 'Estado',
    'keys.created': 'Alta',
    'keys.revokedAt': 'Revocada',
    'keys.active': 'Activa',
    'keys.revoked': 'Revocada',
    'keys.revoke': 'Revocar',
    'keys.revokeWhich': 'la llave {short}',
    'keys.onlyOne': 'Única llave activa',
    'keys.confirmTitle': '¿Revocar la llave {short}?',
    'keys.confirmText':
      'Desde ese momento, toda solicitud firmada con ella se rechaza (código 20052). Hazlo solo cuando tu sistema ya firme con otra llave.',
    'keys.confirmYes': 'Sí, revocar',
    'keys.cancel': 'Cancelar',
    'keys.revokedOk': 'Llave {short} revocada.',
    'keys.add': 'Agregar una llave',
    'keys.pem': 'Llave pública (PEM)',
    'keys.pemHint':
      'Pega la llave pública RSA de 2048 bits o más, de «-----BEGIN PUBLIC KEY-----» a «-----END PUBLIC KEY-----». Nunca pegues tu llave privada.',
    'keys.pemNeeded': 'Pega una llave pública en formato PEM.',
    'keys.notPrivate': 'Esto es una llave privada: no la compartas. Pega solo la llave pública.',
    'keys.addSubmit': 'Agregar llave',
    'keys.addedOk': 'Llave {short} agregada y activa.',
    'keys.full': 'Ya tienes {max} llaves activas: revoca una antes de agregar otra.',
    'keys.platform': 'Llave pública de la plataforma',
    'keys.platformIntro':
      'Con ella verificas la firma de nuestras respuestas y de las notificaciones (callbacks) que te enviamos.',
    'keys.platformFingerprint': 'Huella (SHA-256)',
    'keys.download': 'Descargar llave de la plataforma (.pem)',
    'keys.showPem': 'Ver la llave en texto',
  },
  {
    'nav.keys': 'API keys',
    'keys.title': 'API keys',
    'keys.intro':
      'You sign every request with your private key; here you register its public key. You may have up to {max} active keys at once: add the new one, switch your system to it, then revoke the old one.',
    'keys.yours': 'Your public keys',
    'keys.list': "The merchant's public keys",
    'keys.keyTitle': 'Key {short}',
    'keys.fingerprint': 'Fingerprint (SHA-256)',
    'keys.status': 'Status',
    'keys.created': 'Added',
    'keys.revokedAt': 'Revoked',
    'keys.active': 'Active',
    'keys.revoked': 'Revoked',
    'keys.revoke': 'Revoke',
    'keys.revokeWhich': 'key {short}',
    'keys.onlyOne': 'Only active key',
    'keys.confirmTitle': 'Revoke key {short}?',
    'keys.confirmText':
      'From then on, every request signed with it is refused (code 20052). Do it only once your system signs with another key.',
    'keys.confirmYes': 'Yes, revoke',
    'keys.cancel': 'Cancel',
    'keys.revokedOk': 'Key {short} revoked.',
    'keys.add': 'Add a key',
    'keys.pem': 'Public key (PEM)',
    'keys.pemHint':
      'Paste the RSA public key, 2048 bits or more, from “-----BEGIN PUBLIC KEY-----” to “-----END PUBLIC KEY-----”. Never paste your private key.',
    'keys.pemNeeded': 'Paste a public key in PEM format.',
    'keys.notPrivate': 'This is a private key: do not share it. Paste the public key only.',
    'keys.addSubmit': 'Add key',
    'keys.addedOk': 'Key {short} added and active.',
    'keys.full': 'You already have {max} active keys: revoke one before adding another.',
    'keys.platform': "The platform's public key",
    'keys.platformIntro': 'With it you verify the signature of our replies and of the callbacks we send you.',
    'keys.platformFingerprint': 'Fingerprint (SHA-256)',
    'keys.download': 'Download the platform key (.pem)',
    'keys.showPem': 'Show the key as text',
  },
);

/** The first 16 hex digits, grouped: enough to tell two keys apart when speaking of them. */
const shortPrint = (fingerprint: string) => fingerprint.slice(0, 16).replace(/(.{4})(?!$)/g, '$1 ');

type Outcome = { ok?: string; error?: unknown } | null;

export function KeysPage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const api = keysApi(props.api.client);
  const list = useResource(() => api.keys(), []);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const max = list.data?.maxActive ?? 2;
  const active = list.data?.keys.filter((k) => k.status === 'active').length ?? 0;

  return (
    <Page title={t('keys.title')}>
      <p>{t('keys.intro', { max })}</p>
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">{t('keys.yours')}</h2>
        {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
        {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
        {list.loading && !list.data && <Loading />}
        {list.error !== undefined && <ErrorNotice error={list.error} />}
        {list.data && (
          <KeyList
            keys={list.data.keys}
            canRevoke={may('POST /dashboard/api/keys/:id/revoke') && active > 1}
            onlyOne={active <= 1}
            revoke={async (key) => {
              setOutcome(null);
              try {
                await api.revoke(key.id);
                setOutcome({ ok: t('keys.revokedOk', { short: shortPrint(key.fingerprint) }) });
                list.reload();
              } catch (error) {
                setOutcome({ error });
              }
            }}
          />
        )}
      </section>
      {may('POST /dashboard/api/keys') && list.data && (
        <AddKey
          full={active >= max}
          max={max}
          add={async (pem) => {
            setOutcome(null);
            const result = await api.add(pem);
            const added = 'done' in result ? result.done.key : undefined;
            setOutcome({ ok: t('keys.addedOk', { short: shortPrint(added?.fingerprint ?? '') }) });
            list.reload();
          }}
        />
      )}
      <PlatformKey api={api} />
    </Page>
  );
}

function KeyList(props: {
  keys: MerchantKey[];
  canRevoke: boolean;
  onlyOne: boolean;
  revoke(key: MerchantKey): Promise<void>;
}) {
  const { t, lang } = useI18n();
  const [asking, setAsking] = useState<MerchantKey | null>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (props.keys.length === 0) return <p>{t('common.none')}</p>;
  return (
    <>
      {/* A card per key rather than a table: a 64-digit fingerprint reads on a phone only on lines of its own. */}
      <ul class="keys" aria-label={t('keys.list')}>
        {props.keys.map((k) => (
          <li key={k.id} class="card">
            <h3>{t('keys.keyTitle', { short: shortPrint(k.fingerprint) })}</h3>
            <dl class="facts">
              <dt>{t('keys.status')}</dt>
              <dd>
                <span class={`badge ${k.status === 'active' ? 'good' : 'muted'}`}>
                  {k.status === 'active' ? t('keys.active') : t('keys.revoked')}
                </span>
                {k.status === 'active' && props.onlyOne && (
                  <>
                    {' '}
                    <span class="hint">{t('keys.onlyOne')}</span>
                  </>
                )}
              </dd>
              <dt>{t('keys.fingerprint')}</dt>
              <dd>
                <code class="fingerprint">{k.fingerprint}</code>
              </dd>
              <dt>{t('keys.created')}</dt>
              <dd>{formatDateTime(k.createdAt, lang)}</dd>
              {k.revokedAt && (
                <>
                  <dt>{t('keys.revokedAt')}</dt>
                  <dd>{formatDateTime(k.revokedAt, lang)}</dd>
                </>
              )}
            </dl>
            {props.canRevoke && k.status === 'active' && (
              <button type="button" class="secondary" onClick={() => setAsking(k)}>
                {t('keys.revoke')}
                <span class="vh"> {t('keys.revokeWhich', { short: shortPrint(k.fingerprint) })}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {asking && (
        <section class="confirm" aria-labelledby="revoke-title">
          <h3 id="revoke-title">{t('keys.confirmTitle', { short: shortPrint(asking.fingerprint) })}</h3>
          <p id="revoke-text">{t('keys.confirmText')}</p>
          <div class="actions">
            <button
              type="button"
              ref={confirm}
              aria-describedby="revoke-text"
              onClick={async () => {
                const key = asking;
                setAsking(null);
                await props.revoke(key);
              }}
            >
              {t('keys.confirmYes')}
            </button>
            <button type="button" class="secondary" onClick={() => setAsking(null)}>
              {t('keys.cancel')}
            </button>
          </div>
        </section>
      )}
    </>
  );
}

function AddKey(props: { full: boolean; max: number; add(pem: string): Promise<void> }) {
  const { t } = useI18n();
  const id = useId();
  const [pem, setPem] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="add-key-heading">
      <h2 id="add-key-heading">{t('keys.add')}</h2>
      {props.full ? (
        <Notice kind="info">{t('keys.full', { max: props.max })}</Notice>
      ) : (
        <form
          noValidate
          onSubmit={async (event) => {
            event.preventDefault();
            setError(undefined);
            const text = pem.trim();
            if (/PRIVATE KEY-----/.test(text)) return setProblem(t('keys.notPrivate'));
            if (!/^-----BEGIN (RSA )?PUBLIC KEY-----[\s\S]+-----END (RSA )?PUBLIC KEY-----$/.test(text)) {
              return setProblem(t('keys.pemNeeded'));
            }
            setProblem(undefined);
            setBusy(true);
            try {
              await props.add(text);
              setPem('');
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <div class="field">
            <label for={id}>{t('keys.pem')}</label>
            <p class="hint" id={`${id}-hint`}>
              {t('keys.pemHint')}
            </p>
            <textarea
              id={id}
              name="publicKey"
              rows={8}
              spellcheck={false}
              autocomplete="off"
              value={pem}
              onInput={(e) => setPem(e.currentTarget.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-hint ${id}-error` : `${id}-hint`}
            />
            {problem && (
              <p class="field-error" id={`${id}-error`}>
                {problem}
              </p>
            )}
          </div>
          {error !== undefined && <ErrorNotice error={error} />}
          <div>
            <button type="submit" disabled={busy}>
              {t('keys.addSubmit')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function PlatformKey(props: { api: ReturnType<typeof keysApi> }) {
  const { t } = useI18n();
  const key = useResource(() => props.api.platformKey(), []);
  return (
    <section aria-labelledby="platform-key-heading">
      <h2 id="platform-key-heading">{t('keys.platform')}</h2>
      <p>{t('keys.platformIntro')}</p>
      {key.error !== undefined && <ErrorNotice error={key.error} />}
      {key.data && (
        <>
          <dl class="facts">
            <dt>{t('keys.platformFingerprint')}</dt>
            <dd>
              <code class="fingerprint">{key.data.fingerprint}</code>
            </dd>
          </dl>
          <p>
            <a class="button" href={PLATFORM_KEY_FILE} download="agentpay-platform-public-key.pem">
              {t('keys.download')}
            </a>
          </p>
          <details>
            <summary>{t('keys.showPem')}</summary>
            <pre class="pem">{key.data.publicKey}</pre>
          </details>
        </>
      )}
    </section>
  );
}
