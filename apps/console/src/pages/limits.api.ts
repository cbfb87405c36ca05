import { type ApiClient, limitsAnswer, type MerchantLimitsView } from '@agentpay/ui';

// A merchant's limits for operators (CONTRACT section 19): read them with today's and this month's usage,
// and ask for new ones through four eyes (a change that only lowers limits takes effect at once).

const enc = encodeURIComponent;

/** The permission table's names of these routes (useMay). */
export const MAY = {
  read: 'GET /admin/merchants/:mchNo/limits',
  change: 'PUT /admin/merchants/:mchNo/limits',
} as const;

export function limitsApi(client: ApiClient) {
  return {
    limits: (mchNo: string) => client.get(`/admin/merchants/${enc(mchNo)}/limits`, limitsAnswer),
    /**
     * Every limit sent: a number of pesos (a count for dailyCount), or null for no limit. `lowerOnly` asks
     * for the change at once, without a second operator; the server refuses it (409) unless it only lowers.
     */
    change: (mchNo: string, limits: MerchantLimitsView, lowerOnly: boolean) =>
      client.send(
        'PUT',
        `/admin/merchants/${enc(mchNo)}/limits`,
        { limits, ...(lowerOnly && { lowerOnly: true }) },
        limitsAnswer,
      ),
  };
}
