import { type ApiClient, limitsAnswer } from '@agentpay/ui';

// The merchant's limits in effect and today's and this month's usage (`GET /dashboard/api/limits`, CONTRACT
// section 19), always of the signed-in person's merchant.

export function limitsApi(client: ApiClient) {
  return { limits: () => client.get('/dashboard/api/limits', limitsAnswer) };
}
