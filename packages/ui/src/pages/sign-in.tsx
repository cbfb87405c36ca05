import { useState } from 'preact/hooks';
import * as z from 'zod/mini';
import { type ApiClient, ApiError, type Session } from '../api';
import { ErrorNotice, Field, Notice, Page } from '../components';
import { useI18n } from '../i18n';

const form = z.object({
  email: z.email(),
  password: z.string().check(z.minLength(1)),
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});
type Form = z.infer<typeof form>;

/** Email, password and a current TOTP code (CONTRACT section 17); one answer for any wrong part. */
export function SignInPage(props: { api: ApiClient; onSignedIn(session: Session): void }) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget as HTMLFormElement));
    const parsed = form.safeParse(data);
    if (!parsed.success) {
      const next: Partial<Record<keyof Form, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Form;
        next[key] ??= key === 'email' && data['email'] ? t('signIn.badEmail') : t('signIn.required');
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setFailure(null);
    setBusy(true);
    try {
      props.onSignedIn(await props.api.signIn(parsed.data));
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="narrow">
      <Page title={t('signIn.title')}>
        {failure !== null &&
          (failure instanceof ApiError && failure.status === 401 ? (
            <Notice kind="error">{t('signIn.wrong')}</Notice>
          ) : failure instanceof ApiError && (failure.status === 423 || failure.status === 429) ? (
            <Notice kind="error">{t('signIn.locked')}</Notice>
          ) : (
            <ErrorNotice error={failure} />
          ))}
        <form onSubmit={submit} noValidate>
          <Field
            label={t('signIn.email')}
            name="email"
            type="email"
            autocomplete="username"
            required
            error={errors.email}
          />
          <Field
            label={t('signIn.password')}
            name="password"
            type="password"
            autocomplete="current-password"
            required
            error={errors.password}
          />
          <Field
            label={t('signIn.code')}
            hint={t('signIn.codeHint')}
            name="code"
            autocomplete="one-time-code"
            inputMode="numeric"
            required
            error={errors.code}
          />
          <button type="submit" disabled={busy}>
            {t('signIn.submit')}
          </button>
        </form>
      </Page>
    </div>
  );
}
