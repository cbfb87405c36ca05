import { type ApiClient, ApiError, pendingApproval, withQuery } from '@agentpay/ui';
import * as z from 'zod/mini';

// The compliance desk as the console reads it (docs/compliance.md): screening lists and their versions,
// cases with their operations and history, the monitoring rules, and the reports' CSV. Amounts arrive in
// pesos (strings with two decimals) and are only formatted.

export const LIST_KINDS = ['blocked', 'watch'] as const;
export const CASE_STATES = ['held', 'open', 'released', 'rejected', 'closed'] as const;
export const CASE_KINDS = ['screening', 'rule'] as const;
export const OUTCOMES = ['not_unusual', 'report'] as const;
export const REPORT_KINDS = ['unusual', 'blocked'] as const;
export const LIST_FORMATS = ['csv', 'ofac-sdn'] as const;

export const listVersion = z.looseObject({
  id: z.string(),
  version: z.number(),
  state: z.string(),
  format: z.string(),
  entries: z.number(),
  uploadedBy: z.string(),
  createdAt: z.string(),
  approvedBy: z.optional(z.string()),
  approvalId: z.optional(z.string()),
  effectiveAt: z.optional(z.string()),
});
export const screeningList = z.looseObject({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  hitThreshold: z.number(),
  reviewThreshold: z.number(),
  createdBy: z.string(),
  createdAt: z.string(),
  effectiveVersion: z.optional(z.number()),
  entries: z.optional(z.number()),
  versions: z.array(listVersion),
});
export type ScreeningList = z.infer<typeof screeningList>;
export const screeningLists = z.object({ lists: z.array(screeningList) });

const party = z.looseObject({
  name: z.optional(z.string()),
  rfc: z.optional(z.string()),
  curp: z.optional(z.string()),
  account: z.optional(z.string()),
  bank: z.optional(z.string()),
});
export const caseOperation = z.looseObject({
  kind: z.string(),
  ref: z.string(),
  at: z.optional(z.string()),
  mchNo: z.optional(z.string()),
  amount: z.optional(z.string()),
  currency: z.optional(z.string()),
  name: z.optional(z.string()),
  account: z.optional(z.string()),
  bank: z.optional(z.string()),
  link: z.optional(z.string()),
});
export const caseHistory = z.looseObject({
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  text: z.optional(z.string()),
});
export const complianceCase = z.looseObject({
  id: z.string(),
  kind: z.string(),
  state: z.string(),
  mchNo: z.optional(z.string()),
  subject: z.optional(party),
  listId: z.optional(z.string()),
  listKind: z.optional(z.string()),
  entry: z.optional(
    z.looseObject({
      name: z.optional(z.string()),
      rfc: z.optional(z.string()),
      curp: z.optional(z.string()),
      birthDate: z.optional(z.string()),
      country: z.optional(z.string()),
      reference: z.optional(z.string()),
      listName: z.optional(z.string()),
      match: z.optional(z.string()),
      by: z.optional(z.string()),
    }),
  ),
  score: z.optional(z.number()),
  rule: z.optional(z.string()),
  figures: z.optional(z.record(z.string(), z.unknown())),
  holdsPayout: z.optional(z.boolean()),
  releaseNeedsTwo: z.optional(z.boolean()),
  decision: z.optional(z.string()),
  outcome: z.optional(z.string()),
  reason: z.optional(z.string()),
  closedAt: z.optional(z.string()),
  createdAt: z.string(),
  updatedAt: z.optional(z.string()),
  operations: z.optional(z.array(caseOperation)),
  history: z.optional(z.array(caseHistory)),
});
export type ComplianceCase = z.infer<typeof complianceCase>;
export const casePage = z.object({ cases: z.array(complianceCase), nextCursor: z.nullish(z.string()) });
const decided = z.looseObject({
  case: complianceCase,
  transfer: z.optional(z.looseObject({ transferNo: z.string(), status: z.string() })),
});

// The service answers amounts as numbers of pesos (docs/compliance.md shows them as strings): both are read.
const amountRule = z.nullable(z.looseObject({ amount: z.union([z.number(), z.string()]) }));
const countRule = z.nullable(z.looseObject({ count: z.number() }));
export const rules = z.looseObject({
  largeOperation: amountRule,
  structuring: countRule,
  newPayeeVolume: amountRule,
  manyPayers: countRule,
  updatedBy: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
});
export type Rules = z.infer<typeof rules>;
export type RulesBody = Pick<Rules, 'largeOperation' | 'structuring' | 'newPayeeVolume' | 'manyPayers'>;

const pendingList = z.object({ items: z.array(z.looseObject({ id: z.string(), state: z.string() })) });

export interface CaseFilter {
  state?: string;
  kind?: string;
}

export function complianceApi(api: ApiClient) {
  return {
    lists: () => api.get('/admin/screening/lists', screeningLists),
    createList: (body: { name: string; kind: string }) =>
      api.send('POST', '/admin/screening/lists', body, screeningList),
    /**
     * Uploads a list file as text (the one call of the desk whose body is not JSON). Always waits for a
     * second person: the answer is the pending approval.
     */
    uploadVersion: async (id: string, format: string, file: string) => {
      const response = await fetch(
        withQuery(`/admin/screening/lists/${encodeURIComponent(id)}/entries`, { format }),
        {
          method: 'PUT',
          credentials: 'same-origin',
          headers: {
            accept: 'application/json',
            'content-type': 'text/csv; charset=utf-8',
            'x-csrf-token': api.session()?.csrfToken ?? '',
          },
          body: file,
        },
      ).catch(() => {
        throw new ApiError(0, 'network', 'network');
      });
      const answer = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
      if (response.status !== 202)
        throw new ApiError(
          response.status,
          answer.error ?? String(response.status),
          answer.message ?? response.statusText,
        );
      return pendingApproval.parse(answer).approval;
    },
    cases: (filter: CaseFilter, cursor?: string) =>
      api.get('/admin/compliance/cases', casePage, { ...filter, cursor, limit: 50 }),
    case: (id: string) => api.get(`/admin/compliance/cases/${encodeURIComponent(id)}`, complianceCase),
    note: (id: string, text: string) =>
      api.send('POST', `/admin/compliance/cases/${encodeURIComponent(id)}/notes`, { text }, complianceCase),
    release: (id: string, reason: string) =>
      api.send(
        'POST',
        `/admin/compliance/cases/${encodeURIComponent(id)}/release`,
        reason ? { reason } : {},
        decided,
      ),
    reject: (id: string, reason: string) =>
      api.send('POST', `/admin/compliance/cases/${encodeURIComponent(id)}/reject`, { reason }, decided),
    close: (id: string, body: { outcome: string; reason: string }) =>
      api.send('POST', `/admin/compliance/cases/${encodeURIComponent(id)}/close`, body, complianceCase),
    /** The release requests that wait for a second person on this case (a blocked-list hit's). */
    waitingOn: (id: string) =>
      api.get('/admin/approvals', pendingList, {
        state: 'pending',
        target: `compliance_case:${id}`,
        limit: 5,
      }),
    rules: () => api.get('/admin/compliance/rules', rules),
    setRules: (body: RulesBody) => api.send('PUT', '/admin/compliance/rules', body, rules),
    /** Where the browser downloads a report's CSV (a GET with the session cookie). */
    reportUrl: (query: { kind: string; from: string; to: string }) =>
      withQuery('/admin/compliance/reports', query),
  };
}
export type ComplianceApi = ReturnType<typeof complianceApi>;
