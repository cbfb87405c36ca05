import { type ApiClient, balanceParts, type Query, statementPage, withQuery } from '@agentpay/ui';

// The dashboard's balance and statement (/dashboard/api, docs/console.md "Dashboard API"), always of the
// signed-in person's merchant: no merchant number is ever sent.

/** The permission table's names of these routes (useMay). */
export const MAY = {
  balance: 'GET /dashboard/api/balance',
  statement: 'GET /dashboard/api/statement',
  statementCsv: 'GET /dashboard/api/statement.csv',
} as const;

export function balanceApi(client: ApiClient) {
  return {
    balance: () => client.get('/dashboard/api/balance', balanceParts),
    statement: (query: Query) => client.get('/dashboard/api/statement', statementPage, query),
    /** The CSV's address, for a download link (the browser sends the session's cookie). */
    statementCsvHref: (query: { from: string; to: string }) =>
      withQuery('/dashboard/api/statement.csv', query),
  };
}
