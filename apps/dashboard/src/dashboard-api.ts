import { createApiClient } from '@agentpay/ui';

// The dashboard's API (/dashboard/api, CONTRACT sections 17 and 18) as its pages call it: one typed client;
// each area adds its calls in pages/<area>.api.ts beside its page, built on `client`.

export function dashboardApi(onUnauthorized: () => void) {
  const client = createApiClient({ sessionBase: '/dashboard/api', onUnauthorized });
  return { client };
}
export type DashboardApi = ReturnType<typeof dashboardApi>;
