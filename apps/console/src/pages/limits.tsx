import {
  defineDictionaries,
  ErrorNotice,
  Field,
  LIMIT_NAMES,
  type LimitName,
  LimitsTable,
  Loading,
  limitOf,
  limitsUiMessages,
  type MerchantLimitsView,
  mergeDictionaries,
  Notice,
  parseDecimal,
  useI18n,
  useMay,
  useResource,
} from '@agentpay/ui';
import { useMemo, useState } from 'preact/hooks';
import type { ConsoleApi } from '../console-api';
import { limitsApi, MAY } from './limits.api';

// The merchant page's limits (CONTRACT section 19): the limits in effect with today's and this month's
// usage, and for an operator who may, a change request. Raising or removing a limit waits for a second
// operator (four eyes, the approvals page); a change that only lowers limits takes effect at once.

export const limitsMessages = mergeDictionaries(
  limitsUiMessages,
  defineDictionaries(
    {
      'mlimits.title': 'Límites',
      'mlimits.change': 'Cambiar límites',
      'mlimits.changeHelp':
        'Montos en pesos con hasta dos decimales; vacío: sin límite. Bajar un límite aplica al momento; subirlo o quitarlo espera la aprobación de otra persona operadora.',
      'mlimits.submit': 'Pedir el cambio',
      'mlimits.bad': 'Escribe un monto en pesos, con hasta dos decimales, o déjalo vacío.',
      'mlimits.badCount': 'Escribe un número entero, o déjalo vacío.',
      'mlimits.saved': 'Límites cambiados.',
      'mlimits.approval': 'Solicitud enviada para aprobación ({id}).',
    },
    {
      'mlimits.title': 'Limits',
      'mlimits.change': 'Change limits',
      'mlimits.changeHelp':
        'Amounts in pesos with up to two decimals; empty: no limit. Lowering a limit applies at once; raising or removing one waits for another operator to approve it.',
      'mlimits.submit': 'Ask for the change',
      'mlimits.bad': 'Enter an amount in pesos, with up to two decimals, or leave it empty.',
      'mlimits.badCount': 'Enter a whole number, or leave it empty.',
      'mlimits.saved': 'Limits changed.',
      'mlimits.approval': 'Request sent for approval ({id}).',
    },
  ),
);

/** Whether `next` keeps or lowers every limit of `current` (none removed): the server checks it again. */
function onlyLowers(current: MerchantLimitsView, next: MerchantLimitsView): boolean {
  return LIMIT_NAMES.every((name) => {
    const now = limitOf(current, name);
    const then = limitOf(next, name);
    return now === then || (then !== null && (now === null || then <= now));
  });
}

export function MerchantLimits(props: { api: ConsoleApi; mchNo: string }) {
  const { t } = useI18n();
  const may = useMay();
  const api = useMemo(() => limitsApi(props.api.client), [props.api]);
  const canRead = may(MAY.read);
  const answer = useResource(
    () => (canRead ? api.limits(props.mchNo) : Promise.resolve(undefined)),
    [props.mchNo, canRead],
  );
  const [outcome, setOutcome] = useState<{ ok?: string; error?: unknown } | null>(null);
  const [errors, setErrors] = useState<Partial<Record<LimitName, string>>>({});
  if (!canRead) return null;
  const current = answer.data?.limits;

  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const values: Partial<Record<LimitName, number | null>> = {};
    const found: Partial<Record<LimitName, string>> = {};
    for (const name of LIMIT_NAMES) {
      const text = String(data.get(name) ?? '').trim();
      if (!text) {
        values[name] = null;
        continue;
      }
      if (name === 'payout.dailyCount') {
        if (/^\d{1,9}$/.test(text)) values[name] = Number(text);
        else found[name] = t('mlimits.badCount');
        continue;
      }
      // Through centavos, never a float: the API takes pesos with two decimals.
      const centavos = parseDecimal(text, 2);
      if (centavos === null) found[name] = t('mlimits.bad');
      else values[name] = centavos / 100;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    const limits: MerchantLimitsView = {
      payout: {
        perTransfer: values['payout.perTransfer'] ?? null,
        daily: values['payout.daily'] ?? null,
        dailyCount: values['payout.dailyCount'] ?? null,
        monthly: values['payout.monthly'] ?? null,
      },
      payin: { perOrder: values['payin.perOrder'] ?? null },
    };
    setOutcome(null);
    try {
      const result = await api.change(props.mchNo, limits, current ? onlyLowers(current, limits) : false);
      setOutcome({
        ok: 'approval' in result ? t('mlimits.approval', { id: result.approval.id }) : t('mlimits.saved'),
      });
      answer.reload();
    } catch (error) {
      setOutcome({ error });
    }
  };

  return (
    <section aria-labelledby="merchant-limits">
      <h2 id="merchant-limits">{t('mlimits.title')}</h2>
      {answer.loading && !answer.data && <Loading />}
      {answer.error !== undefined && <ErrorNotice error={answer.error} />}
      {answer.data && <LimitsTable answer={answer.data} />}
      {outcome?.ok && <Notice kind="ok">{outcome.ok}</Notice>}
      {outcome?.error !== undefined && <ErrorNotice error={outcome.error} />}
      {current && may(MAY.change) && (
        <form
          noValidate
          aria-labelledby="merchant-limits-change"
          onSubmit={(event) => {
            event.preventDefault();
            void submit(event.currentTarget);
          }}
        >
          <h3 id="merchant-limits-change">{t('mlimits.change')}</h3>
          <p class="hint">{t('mlimits.changeHelp')}</p>
          {LIMIT_NAMES.map((name) => {
            const value = limitOf(current, name);
            return (
              <Field
                key={`${name}:${value}`}
                label={t(`limits.${name}`)}
                name={name}
                inputMode={name === 'payout.dailyCount' ? 'numeric' : 'decimal'}
                autocomplete="off"
                defaultValue={
                  value === null ? '' : name === 'payout.dailyCount' ? String(value) : value.toFixed(2)
                }
                error={errors[name]}
              />
            );
          })}
          <button type="submit">{t('mlimits.submit')}</button>
        </form>
      )}
    </section>
  );
}
