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
import { useMemo, useState } from 'preact/hooks';
import type { PageContext } from '../app-pages';
import { MAY, type Settings, type SettingsChange, settingsApi } from './settings.api';

// Controls (CONTRACT section 19): "registered payees only" with its rule (an owner or admin turns it on at
// once; turning it off waits for a second owner or admin, who approves the request here), and the addresses
// the merchant's signed requests may come from (the owner's to change). The API enforces every rule; the
// page offers what the person may do and says what waits.

export const settingsMessages = defineDictionaries(
  {
    'nav.settings': 'Controles',
    'settings.title': 'Controles de pagos',
    'settings.payeesOnly': 'Solo beneficiarios registrados',
    'settings.payeesOnlyRule':
      'Encendido, una transferencia solo va a un beneficiario registrado y usable (ve Beneficiarios). Una persona propietaria o administradora lo enciende al momento; apagarlo necesita que otra persona propietaria o administradora lo apruebe.',
    'settings.isOn': 'Encendido',
    'settings.isOff': 'Apagado',
    'settings.state': 'Estado:',
    'settings.turnOn': 'Encender',
    'settings.askOff': 'Pedir apagarlo',
    'settings.onOk': 'Solo beneficiarios registrados: encendido.',
    'settings.offWaits': 'Solicitud creada: otra persona propietaria o administradora debe aprobarla.',
    'settings.requests': 'Solicitudes pendientes',
    'settings.requestOff': 'Apagar «solo beneficiarios registrados»',
    'settings.requestBy': 'Pedida por {who}, {at}.',
    'settings.you': 'ti',
    'settings.other': 'otra persona',
    'settings.yoursWaits': 'La pediste tú: otra persona la aprueba.',
    'settings.approve': 'Aprobar',
    'settings.cancel': 'Cancelar',
    'settings.approvedOk': 'Solicitud aprobada.',
    'settings.cancelledOk': 'Solicitud cancelada.',
    'settings.ips': 'Direcciones permitidas',
    'settings.ipsRule':
      'Las direcciones IP (o rangos CIDR) desde donde llegan tus solicitudes firmadas. Vacío: cualquiera. Una solicitud firmada desde otra dirección se rechaza con el código 20056. Solo la persona propietaria las cambia.',
    'settings.ipsNone': 'Cualquier dirección.',
    'settings.ipsField': 'Direcciones, una por línea',
    'settings.ipsHint': 'Por ejemplo 203.0.113.7 o 203.0.113.0/24.',
    'settings.ipsBad': 'No es una dirección ni un rango CIDR: {value}',
    'settings.ipsSave': 'Guardar direcciones',
    'settings.ipsOk': 'Direcciones guardadas.',
    'settings.ownerOnly': 'Solo la persona propietaria cambia las direcciones.',
  },
  {
    'nav.settings': 'Controls',
    'settings.title': 'Payment controls',
    'settings.payeesOnly': 'Registered payees only',
    'settings.payeesOnlyRule':
      'When on, a transfer goes only to a registered, usable payee (see Payees). An owner or admin turns it on at once; turning it off needs another owner or admin to approve it.',
    'settings.isOn': 'On',
    'settings.isOff': 'Off',
    'settings.state': 'Status:',
    'settings.turnOn': 'Turn on',
    'settings.askOff': 'Ask to turn it off',
    'settings.onOk': 'Registered payees only: on.',
    'settings.offWaits': 'Request made: another owner or admin must approve it.',
    'settings.requests': 'Pending requests',
    'settings.requestOff': 'Turn "registered payees only" off',
    'settings.requestBy': 'Asked by {who}, {at}.',
    'settings.you': 'you',
    'settings.other': 'another person',
    'settings.yoursWaits': 'You asked: another person approves it.',
    'settings.approve': 'Approve',
    'settings.cancel': 'Cancel',
    'settings.approvedOk': 'Request approved.',
    'settings.cancelledOk': 'Request cancelled.',
    'settings.ips': 'Allowed addresses',
    'settings.ipsRule':
      'The IP addresses (or CIDR ranges) your signed requests come from. Empty: any. A signed request from elsewhere is refused with code 20056. Only the owner changes them.',
    'settings.ipsNone': 'Any address.',
    'settings.ipsField': 'Addresses, one per line',
    'settings.ipsHint': 'For example 203.0.113.7 or 203.0.113.0/24.',
    'settings.ipsBad': 'Not an address or a CIDR range: {value}',
    'settings.ipsSave': 'Save addresses',
    'settings.ipsOk': 'Addresses saved.',
    'settings.ownerOnly': 'Only the owner changes the addresses.',
  },
);

// An IPv4 or IPv6 address, with an optional prefix length: a first check in the page; the API decides.
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
const IPV6 = /^[0-9a-fA-F:]*:[0-9a-fA-F:.]*(\/(12[0-8]|1[01]\d|\d?\d))?$/;
const looksLikeCidr = (value: string) => IPV4.test(value) || IPV6.test(value);

export function SettingsPage(props: PageContext) {
  const { t } = useI18n();
  const may = useMay();
  const api = useMemo(() => settingsApi(props.api.client), [props.api]);
  const current = useResource(() => api.settings(), []);
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const isOwner = props.api.client.session()?.user.roles.includes('owner') ?? false;

  const run = async (work: () => Promise<unknown>, ok: string) => {
    setOutcome(null);
    try {
      await work();
      setOutcome({ ok });
    } catch (error) {
      setOutcome({ error });
    }
    // A refusal may come from a change made meanwhile (a request approved by someone else): read it again.
    current.reload();
  };
  const change = (body: SettingsChange, ok: string, waits: string) =>
    run(async () => {
      if ((await api.change(body)) === 'waits') throw new Waits(waits);
    }, ok);

  return (
    <Page title={t('settings.title')}>
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error instanceof Waits && <Notice kind="info">{outcome.error.message}</Notice>}
      {outcome?.error !== undefined && !(outcome.error instanceof Waits) && (
        <ErrorNotice error={outcome.error} />
      )}
      {current.loading && !current.data && <Loading />}
      {current.error !== undefined && <ErrorNotice error={current.error} />}
      {current.data && (
        <>
          <PayeesOnly
            settings={current.data}
            canChange={may(MAY.change)}
            canApprove={may(MAY.approve)}
            canCancel={may(MAY.cancel)}
            turnOn={() => change({ registeredPayeesOnly: true }, t('settings.onOk'), '')}
            askOff={() => change({ registeredPayeesOnly: false }, '', t('settings.offWaits'))}
            approve={(id) => run(() => api.approve(id), t('settings.approvedOk'))}
            cancel={(id) => run(() => api.cancel(id), t('settings.cancelledOk'))}
          />
          <AllowedIps
            settings={current.data}
            canChange={isOwner && may(MAY.change)}
            save={(allowedIps) => change({ allowedIps }, t('settings.ipsOk'), '')}
          />
        </>
      )}
    </Page>
  );
}

/** Not a failure: the change was accepted as a request that a second person approves. */
class Waits extends Error {}

function PayeesOnly(props: {
  settings: Settings;
  canChange: boolean;
  canApprove: boolean;
  canCancel: boolean;
  turnOn(): void;
  askOff(): void;
  approve(id: string): void;
  cancel(id: string): void;
}) {
  const { t, lang } = useI18n();
  const on = props.settings.registeredPayeesOnly;
  const pending = props.settings.requests;
  return (
    <section aria-labelledby="settings-payees-only">
      <h2 id="settings-payees-only">{t('settings.payeesOnly')}</h2>
      <p class="hint">{t('settings.payeesOnlyRule')}</p>
      <p>
        {t('settings.state')}{' '}
        <span class={`badge ${on ? 'good' : 'muted'}`}>{on ? t('settings.isOn') : t('settings.isOff')}</span>
      </p>
      {props.canChange && !on && (
        <button type="button" onClick={props.turnOn}>
          {t('settings.turnOn')}
        </button>
      )}
      {props.canChange && on && pending.length === 0 && (
        <button type="button" class="secondary" onClick={props.askOff}>
          {t('settings.askOff')}
        </button>
      )}
      {pending.length > 0 && (
        <>
          <h3 id="settings-requests">{t('settings.requests')}</h3>
          <ul aria-labelledby="settings-requests">
            {pending.map((r) => (
              <li key={r.id}>
                <strong>{t('settings.requestOff')}</strong>{' '}
                {t('settings.requestBy', {
                  who: r.requestedByMe ? t('settings.you') : t('settings.other'),
                  at: formatDateTime(r.createdAt, lang),
                })}
                <div class="actions">
                  {r.requestedByMe ? (
                    <span class="hint">{t('settings.yoursWaits')}</span>
                  ) : (
                    props.canApprove && (
                      <button type="button" onClick={() => props.approve(r.id)}>
                        {t('settings.approve')}
                      </button>
                    )
                  )}
                  {props.canCancel && (
                    <button type="button" class="secondary" onClick={() => props.cancel(r.id)}>
                      {t('settings.cancel')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function AllowedIps(props: { settings: Settings; canChange: boolean; save(allowedIps: string[]): void }) {
  const { t } = useI18n();
  const [error, setError] = useState<string | undefined>();
  const ips = props.settings.allowedIps;
  return (
    <section aria-labelledby="settings-ips">
      <h2 id="settings-ips">{t('settings.ips')}</h2>
      <p class="hint">{t('settings.ipsRule')}</p>
      {!props.canChange &&
        (ips.length === 0 ? (
          <p>{t('settings.ipsNone')}</p>
        ) : (
          <ul aria-labelledby="settings-ips">
            {ips.map((ip) => (
              <li key={ip}>
                <code>{ip}</code>
              </li>
            ))}
          </ul>
        ))}
      {!props.canChange && <p class="hint">{t('settings.ownerOnly')}</p>}
      {props.canChange && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const text = String(new FormData(event.currentTarget).get('allowedIps') ?? '');
            const values = text
              .split(/[\s,]+/)
              .map((v) => v.trim())
              .filter(Boolean);
            const bad = values.find((v) => !looksLikeCidr(v));
            setError(bad ? t('settings.ipsBad', { value: bad }) : undefined);
            if (!bad) props.save(values);
          }}
        >
          <div class="field">
            <label for="settings-ips-field">{t('settings.ipsField')}</label>
            <p class="hint" id="settings-ips-hint">
              {t('settings.ipsHint')}
            </p>
            <textarea
              id="settings-ips-field"
              name="allowedIps"
              rows={4}
              key={ips.join(',')}
              defaultValue={ips.join('\n')}
              aria-describedby={error ? 'settings-ips-hint settings-ips-error' : 'settings-ips-hint'}
              aria-invalid={error ? true : undefined}
            />
            {error && (
              <p class="field-error" id="settings-ips-error">
                {error}
              </p>
            )}
          </div>
          <button type="submit">{t('settings.ipsSave')}</button>
        </form>
      )}
    </section>
  );
}
