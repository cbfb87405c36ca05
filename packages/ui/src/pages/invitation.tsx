import { useState } from 'preact/hooks';
import { type ApiClient, ApiError, enrolment, invitation, recoveryCodes } from '../api';
import { ErrorNotice, Field, Loading, Notice, Page } from '../components';
import { useI18n } from '../i18n';
import { QrCode } from '../qr-code';
import { useResource } from '../use-resource';

type Step =
  | { name: 'password' }
  | { name: 'totp'; secret: string; uri: string }
  | { name: 'codes'; codes: string[] };

/**
 * Accepting an invitation (CONTRACT section 17): a password, then a TOTP authenticator (the secret as text
 * and as a QR code), then ten recovery codes shown this once.
 */
export function InvitationPage(props: { api: ApiClient; token: string; onDone(): void }) {
  const { t } = useI18n();
  const base = `${props.api.sessionBase}/invitations/${encodeURIComponent(props.token)}`;
  const invite = useResource(() => props.api.get(base, invitation), [base]);
  const [step, setStep] = useState<Step>({ name: 'password' });
  const [fieldError, setFieldError] = useState<{ field: string; text: string } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  const setPassword = (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const password = String(data.get('password') ?? '');
    if (password.length < 12) return setFieldError({ field: 'password', text: t('invite.tooShort') });
    if (password !== data.get('passwordAgain'))
      return setFieldError({ field: 'passwordAgain', text: t('invite.mismatch') });
    setFieldError(null);
    void run(async () => {
      const answer = await props.api.send('POST', base, { password }, enrolment);
      if ('done' in answer)
        setStep({ name: 'totp', secret: answer.done.totpSecret, uri: answer.done.otpauthUri });
    });
  };

  const confirm = (event: SubmitEvent) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? '').trim();
    if (!/^\d{6}$/.test(code)) return setFieldError({ field: 'code', text: t('invite.badCode') });
    setFieldError(null);
    void run(async () => {
      const answer = await props.api.send('POST', `${base}/confirm`, { code }, recoveryCodes);
      if ('done' in answer) setStep({ name: 'codes', codes: answer.done.recoveryCodes });
    });
  };

  const errorOf = (field: string) => (fieldError?.field === field ? fieldError.text : undefined);

  if (invite.loading) return <Loading />;
  if (invite.error || !invite.data) {
    const gone = invite.error instanceof ApiError && [404, 410].includes(invite.error.status);
    return (
      <div class="narrow">
        <Page title={t('invite.title')}>
          {gone ? <Notice kind="error">{t('invite.gone')}</Notice> : <ErrorNotice error={invite.error} />}
        </Page>
      </div>
    );
  }

  return (
    <div class="narrow">
      <Page title={step.name === 'codes' ? t('invite.codesTitle') : t('invite.title')}>
        <p>{t('invite.for', { name: invite.data.name, email: invite.data.email })}</p>
        {failure !== null && <ErrorNotice error={failure} />}
        {step.name === 'password' && (
          <form onSubmit={setPassword} noValidate>
            <input type="hidden" name="username" value={invite.data.email} autocomplete="username" />
            <Field
              label={t('invite.password')}
              hint={t('invite.passwordHint')}
              name="password"
              type="password"
              autocomplete="new-password"
              minLength={12}
              required
              error={errorOf('password')}
            />
            <Field
              label={t('invite.passwordAgain')}
              name="passwordAgain"
              type="password"
              autocomplete="new-password"
              required
              error={errorOf('passwordAgain')}
            />
            <button type="submit" disabled={busy}>
              {t('invite.setPassword')}
            </button>
          </form>
        )}
        {step.name === 'totp' && (
          <form onSubmit={confirm} noValidate>
            <h2>{t('invite.totpTitle')}</h2>
            <p>{t('invite.totpHelp')}</p>
            <QrCode text={step.uri} label={t('invite.qr')} />
            <p>
              {t('invite.secret')}: <code class="secret">{step.secret}</code>
            </p>
            <Field
              label={t('invite.code')}
              name="code"
              autocomplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              required
              error={errorOf('code')}
            />
            <button type="submit" disabled={busy}>
              {t('invite.confirm')}
            </button>
          </form>
        )}
        {step.name === 'codes' && (
          <>
            <p>{t('invite.codesHelp')}</p>
            <ul class="codes" aria-label={t('invite.codesList')}>
              {step.codes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
            <button type="button" onClick={props.onDone}>
              {t('invite.done')}
            </button>
          </>
        )}
      </Page>
    </div>
  );
}
