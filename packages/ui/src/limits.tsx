import * as z from 'zod/mini';
import { TableRegion } from './components';
import { formatCount, formatMoney } from './format';
import { defineDictionaries, useI18n } from './i18n';

// A merchant's limits in effect and what today and this month used of them (CONTRACT section 19), as the
// console (`GET /admin/merchants/:mchNo/limits`) and the dashboard (`GET /dashboard/api/limits`) both show
// them: the answer's schema and one table. Amounts are pesos from the API, only formatted here; null is no
// limit. Days and months are Mexico City's.

const limit = z.nullable(z.number());

export const merchantLimits = z.object({
  payout: z.object({ perTransfer: limit, daily: limit, dailyCount: limit, monthly: limit }),
  payin: z.object({ perOrder: limit }),
});
export type MerchantLimitsView = z.infer<typeof merchantLimits>;

export const limitsAnswer = z.object({
  limits: merchantLimits,
  usage: z.object({
    day: z.string(),
    payoutAmount: z.number(),
    payoutCount: z.number(),
    month: z.string(),
    monthAmount: z.number(),
  }),
});
export type LimitsAnswer = z.infer<typeof limitsAnswer>;

/** Every limit by its name as a refusal's `msg` names it, in the order the pages show them. */
export const LIMIT_NAMES = [
  'payout.perTransfer',
  'payout.daily',
  'payout.dailyCount',
  'payout.monthly',
  'payin.perOrder',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** The value in effect of the limit `name` (null: no limit). */
export function limitOf(limits: MerchantLimitsView, name: LimitName): number | null {
  switch (name) {
    case 'payout.perTransfer':
      return limits.payout.perTransfer;
    case 'payout.daily':
      return limits.payout.daily;
    case 'payout.dailyCount':
      return limits.payout.dailyCount;
    case 'payout.monthly':
      return limits.payout.monthly;
    case 'payin.perOrder':
      return limits.payin.perOrder;
    default: {
      const never: never = name;
      return never;
    }
  }
}

export const limitsUiMessages = defineDictionaries(
  {
    'limits.table': 'Límites y uso',
    'limits.name': 'Límite',
    'limits.value': 'En vigor',
    'limits.used': 'Usado',
    'limits.left': 'Disponible',
    'limits.none': 'Sin límite',
    'limits.notCounted': 'Por operación',
    'limits.payout.perTransfer': 'Por transferencia',
    'limits.payout.daily': 'Transferido por día',
    'limits.payout.dailyCount': 'Transferencias por día',
    'limits.payout.monthly': 'Transferido por mes',
    'limits.payin.perOrder': 'Por orden de cobro',
    'limits.usageOf': 'Uso del día {day} y del mes {month}, hora de la Ciudad de México.',
    'limits.counts':
      'Cuenta el monto de cada transferencia aceptada, sin comisión. Una transferencia que falla o se cierra antes de salir devuelve su uso; una que salió y fue devuelta por el banco no.',
  },
  {
    'limits.table': 'Limits and usage',
    'limits.name': 'Limit',
    'limits.value': 'In effect',
    'limits.used': 'Used',
    'limits.left': 'Left',
    'limits.none': 'No limit',
    'limits.notCounted': 'Per operation',
    'limits.payout.perTransfer': 'Per transfer',
    'limits.payout.daily': 'Paid out per day',
    'limits.payout.dailyCount': 'Transfers per day',
    'limits.payout.monthly': 'Paid out per month',
    'limits.payin.perOrder': 'Per pay order',
    'limits.usageOf': 'Usage of the day {day} and the month {month}, Mexico City time.',
    'limits.counts':
      "Each accepted transfer's amount counts, without its fee. A transfer that fails or closes before it leaves gives its usage back; one that left and the bank returned does not.",
  },
);

/** The limits in effect, each with today's or this month's usage and what is left of it. */
export function LimitsTable(props: { answer: LimitsAnswer; label?: string }) {
  const { t, lang } = useI18n();
  const { limits, usage } = props.answer;
  const money = (value: number) => formatMoney(value, lang);
  const used: Record<LimitName, number | null> = {
    'payout.perTransfer': null,
    'payout.daily': usage.payoutAmount,
    'payout.dailyCount': usage.payoutCount,
    'payout.monthly': usage.monthAmount,
    'payin.perOrder': null,
  };
  const show = (name: LimitName, value: number) =>
    name === 'payout.dailyCount' ? formatCount(value, lang) : money(value);
  // Pesos with two decimals: the difference is taken in centavos so no float remainder shows.
  const left = (name: LimitName, value: number, spent: number) =>
    name === 'payout.dailyCount'
      ? Math.max(0, value - spent)
      : Math.max(0, Math.round(value * 100) - Math.round(spent * 100)) / 100;
  return (
    <>
      <p class="hint">{t('limits.usageOf', { day: usage.day, month: usage.month })}</p>
      <TableRegion label={props.label ?? t('limits.table')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('limits.name')}</th>
              <th scope="col">{t('limits.value')}</th>
              <th scope="col">{t('limits.used')}</th>
              <th scope="col">{t('limits.left')}</th>
            </tr>
          </thead>
          <tbody>
            {LIMIT_NAMES.map((name) => {
              const value = limitOf(limits, name);
              const spent = used[name];
              return (
                <tr key={name}>
                  <th scope="row">
                    {t(`limits.${name}`)}
                    <br />
                    <code class="hint">{name}</code>
                  </th>
                  <td class="num">{value === null ? t('limits.none') : show(name, value)}</td>
                  <td class="num">{spent === null ? t('limits.notCounted') : show(name, spent)}</td>
                  <td class="num">
                    {spent === null || value === null ? '—' : show(name, left(name, value, spent))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      <p class="hint">{t('limits.counts')}</p>
    </>
  );
}
