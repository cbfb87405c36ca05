import {
  ErrorNotice,
  Field,
  formatBps,
  Notice,
  Page,
  parseDecimal,
  type Router,
  useI18n,
  useMay,
} from '@agentpay/ui';
import { useId, useState } from 'preact/hooks';
import type { ConsoleApi, Merchant } from '../console-api';

// Creating a merchant and editing its terms (CONTRACT section 11): what the admin API's POST and PATCH
// /admin/merchants take, typed by a person. Amounts are typed in pesos and percent, and sent as integer
// centavos and basis points, converted through the string (parseDecimal), never a float.

export const SETTLE_TYPES = ['REALTIME', 'D+1', 'D+2', 'D+3'] as const;

type Errors = Partial<Record<string, string>>;

interface Terms {
  name: string;
  feeRate: { percentBps: number; fixedCentavos: number };
  settleType: string;
  rateLimitPerS: number | null;
}

/** Reads the terms fields of a submitted form; errors by field name. */
function readTerms(data: FormData, t: (key: string) => string): { terms?: Terms; errors: Errors } {
  const errors: Errors = {};
  const name = String(data.get('name') ?? '').trim();
  if (!name) errors['name'] = t('form.required');
  else if (name.length > 100) errors['name'] = t('form.tooLong');
  const percentBps = parseDecimal(String(data.get('feePercent') ?? ''), 2);
  if (percentBps === null || percentBps > 10_000) errors['feePercent'] = t('merchantForm.badPercent');
  const fixedCentavos = parseDecimal(String(data.get('feeFixed') ?? ''), 2);
  if (fixedCentavos === null || fixedCentavos > 100_000_000) errors['feeFixed'] = t('merchantForm.badAmount');
  const rateText = String(data.get('rateLimit') ?? '').trim();
  const rate = rateText === '' ? null : parseDecimal(rateText, 0);
  if (rateText !== '' && (rate === null || rate > 1_000_000)) errors['rateLimit'] = t('merchantForm.badRate');
  const settleType = String(data.get('settleType') ?? 'D+1');
  if (Object.keys(errors).length > 0) return { errors };
  return {
    terms: {
      name,
      feeRate: { percentBps: percentBps ?? 0, fixedCentavos: fixedCentavos ?? 0 },
      settleType,
      rateLimitPerS: rate,
    },
    errors,
  };
}

const centsText = (centavos: number) => {
  const digits = String(centavos).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** The terms fields, filled with `m`'s when editing. */
function TermsFields(props: { m?: Merchant; errors: Errors }) {
  const { t, lang } = useI18n();
  const settleId = useId();
  const { m, errors } = props;
  return (
    <>
      <Field
        label={t('merchant.name')}
        name="name"
        defaultValue={m?.name ?? ''}
        maxLength={100}
        error={errors['name']}
      />
      <Field
        label={t('merchantForm.feePercent')}
        hint={t('merchantForm.feePercentHint', { example: formatBps(60, lang) })}
        name="feePercent"
        inputMode="decimal"
        defaultValue={m ? centsText(m.feeRate.percentBps) : '0.00'}
        error={errors['feePercent']}
      />
      <Field
        label={t('merchantForm.feeFixed')}
        name="feeFixed"
        inputMode="decimal"
        defaultValue={m ? centsText(m.feeRate.fixedCentavos) : '0.00'}
        error={errors['feeFixed']}
      />
      <div class="field">
        <label for={settleId}>{t('merchant.settleType')}</label>
        <select id={settleId} name="settleType" defaultValue={m?.settleType ?? 'D+1'}>
          {SETTLE_TYPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <Field
        label={t('merchant.rateLimit')}
        hint={t('merchantForm.rateHint')}
        name="rateLimit"
        inputMode="numeric"
        defaultValue={m?.rateLimitPerS === null || m === undefined ? '' : String(m.rateLimitPerS)}
        error={errors['rateLimit']}
      />
    </>
  );
}

/** `merchants/new`: a merchant with its first public key. */
export function NewMerchantPage(props: { api: ConsoleApi; router: Router }) {
  const { t } = useI18n();
  const may = useMay();
  const keyId = useId();
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const read = readTerms(data, t);
    const mchNo = String(data.get('mchNo') ?? '').trim();
    const publicKey = String(data.get('publicKey') ?? '').trim();
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(mchNo)) read.errors['mchNo'] = t('merchantForm.badMchNo');
    if (!publicKey.includes('BEGIN PUBLIC KEY')) read.errors['publicKey'] = t('merchantForm.badKey');
    setErrors(read.errors);
    if (!read.terms || Object.keys(read.errors).length > 0) return;
    setFailure(null);
    setBusy(true);
    try {
      const { rateLimitPerS, ...terms } = read.terms;
      const created = await props.api.createMerchant({ mchNo, publicKey, ...terms });
      if (rateLimitPerS !== null) await props.api.updateMerchant(mchNo, { rateLimitPerS });
      props.router.navigate(`merchants/${encodeURIComponent(created.mchNo)}`);
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('merchantForm.newTitle')}>
      <p>
        <props.router.Link to="merchants">{t('merchant.back')}</props.router.Link>
      </p>
      {!may('POST /admin/merchants') && <Notice kind="info">{t('error.forbidden')}</Notice>}
      {failure !== null && <ErrorNotice error={failure} />}
      {may('POST /admin/merchants') && (
        <form onSubmit={submit} noValidate>
          <Field
            label={t('merchant.mchNo')}
            hint={t('merchantForm.mchNoHint')}
            name="mchNo"
            maxLength={32}
            error={errors['mchNo']}
          />
          <TermsFields errors={errors} />
          <div class="field">
            <label for={keyId}>{t('merchantForm.publicKey')}</label>
            <p class="hint" id={`${keyId}-hint`}>
              {t('merchantForm.publicKeyHint')}
            </p>
            <textarea
              id={keyId}
              name="publicKey"
              rows={6}
              aria-describedby={errors['publicKey'] ? `${keyId}-hint ${keyId}-error` : `${keyId}-hint`}
              aria-invalid={errors['publicKey'] ? true : undefined}
            />
            {errors['publicKey'] && (
              <p class="field-error" id={`${keyId}-error`}>
                {errors['publicKey']}
              </p>
            )}
          </div>
          <button type="submit" disabled={busy}>
            {t('merchantForm.create')}
          </button>
        </form>
      )}
    </Page>
  );
}

/** The terms of an existing merchant: name, fee, settlement, rate limit. */
export function MerchantTermsForm(props: { api: ConsoleApi; m: Merchant; onSaved(message: string): void }) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const read = readTerms(new FormData(event.currentTarget as HTMLFormElement), t);
    setErrors(read.errors);
    if (!read.terms) return;
    setFailure(null);
    setBusy(true);
    try {
      const answer = await props.api.updateMerchant(props.m.mchNo, { ...read.terms });
      props.onSaved(
        'approval' in answer ? t('routes.approval', { id: answer.approval.id }) : t('routes.saved'),
      );
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="terms-heading">
      <h2 id="terms-heading">{t('merchantForm.editTitle')}</h2>
      {failure !== null && <ErrorNotice error={failure} />}
      <TermsFields m={props.m} errors={errors} />
      <button type="submit" disabled={busy}>
        {t('common.save')}
      </button>
    </form>
  );
}
