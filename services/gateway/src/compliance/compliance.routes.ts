import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import {
  type CallOrigin,
  type ComplianceServiceClient,
  callKeepingStatus,
  fromServiceError,
  type TransferServiceClient,
} from '@agentpay/proto';
import { z } from 'zod';
import {
  type AdminOperation,
  type Approvals,
  adminCall,
  type HttpResult,
  type OperationRegistry,
  originOfRequest,
} from '../approvals/index.js';
import type { MerchantService } from '../merchants/index.js';
import { schemaProblem, schemaRefusal } from '../shared/schema-problem.js';
import { complianceCaller, refusalOf } from './compliance-calls.js';
import { registerComplianceReport } from './compliance-report.routes.js';

// The compliance desk's admin routes (docs/compliance.md). Lists and their versions, cases, rules and reports
// live in the compliance service; a held transfer's release or rejection is recorded there first and then
// carried to transfers (ReleaseHeld / RejectHeld), both idempotent, so a retry (or the approvals sweep)
// finishes what a crash cut short. A list version and a rule change take effect through four eyes with a
// second `compliance` or `owner` person; so does releasing a blocked-list hit.

export interface ComplianceAdminDeps {
  compliance: ComplianceServiceClient;
  transfers: TransferServiceClient;
  approvals: Approvals;
  operations: OperationRegistry;
  /** Every merchant, to re-screen their registered payees when a list version takes effect. */
  merchants: Pick<MerchantService, 'list'>;
  timeoutMs: number;
  /** API_TIME_ZONE: report days are its calendar days. */
  timeZone: string;
}

/** Who approves the desk's four-eyes operations. */
export const DESK_APPROVERS = ['compliance', 'owner'] as const;
/** Largest list upload, bytes (the CSV body of PUT /admin/screening/lists/:id/entries). */
export const LIST_BODY_LIMIT = 64 * 1024 * 1024;

const listBody = z.strictObject({ name: z.string().min(1).max(100), kind: z.enum(['blocked', 'watch']) });
const uploadQuery = z.strictObject({ format: z.enum(['csv', 'ofac-sdn']).default('csv') });
const casesQuery = z.strictObject({
  state: z.enum(['open', 'held', 'released', 'rejected', 'closed']).optional(),
  kind: z.enum(['screening', 'rule']).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const noteBody = z.strictObject({ text: z.string().min(1).max(4000) });
const releaseBody = z.strictObject({ reason: z.string().max(1000).optional() }).optional();
const rejectBody = z.strictObject({ reason: z.string().min(1).max(1000) });
const closeBody = z.strictObject({
  outcome: z.enum(['not_unusual', 'report']),
  reason: z.string().min(1).max(1000),
});
const amount = z
  .number()
  .positive()
  .max(99_999_999.99)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'at most 2 decimal places');
const count = z.number().int().min(1).max(100_000);
const rulesBody = z.strictObject({
  largeOperation: z.strictObject({ amount }).nullable(),
  structuring: z.strictObject({ count }).nullable(),
  newPayeeVolume: z.strictObject({ amount }).nullable(),
  manyPayers: z.strictObject({ count }).nullable(),
});

interface CaseView {
  id: string;
  state: string;
  holdsPayout: boolean;
  releaseNeedsTwo: boolean;
  operations?: { kind: string; ref: string }[];
}

const send = (reply: FastifyReply, result: HttpResult) => reply.code(result.status).send(result.body);
const labelOf = (origin: CallOrigin | undefined) => origin?.actor.label ?? 'system:dev';
const requestLabel = (request: FastifyRequest) => request.actor?.label ?? 'system:dev';

export function registerComplianceAdmin(app: FastifyInstance, deps: ComplianceAdminDeps): void {
  const { compliance, transfers } = deps;
  const options = (origin?: CallOrigin) => adminCall(origin, deps.timeoutMs);

  const ask = complianceCaller(compliance, deps.timeoutMs);

  // Lists (CSV bodies arrive as text: text/csv here, text/plain by Fastify's own parser).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: LIST_BODY_LIMIT }, (_r, body, done) =>
    done(null, body),
  );

  app.get('/admin/screening/lists', async (_request, reply) =>
    send(reply, await ask(compliance.ListLists, {})),
  );

  app.post('/admin/screening/lists', async (request, reply) => {
    const body = listBody.safeParse(request.body);
    if (!body.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(body.error) });
    return send(
      reply,
      await ask(
        compliance.CreateList,
        { ...body.data, actor: requestLabel(request) },
        originOfRequest(request),
        201,
      ),
    );
  });

  interface UploadPayload {
    listId: string;
    versionId: string;
    version: number;
    entries: number;
  }
  const upload: AdminOperation<UploadPayload> = {
    action: 'screening_list.upload',
    method: 'PUT',
    url: '/admin/screening/lists/:id/entries',
    approverRoles: DESK_APPROVERS,
    async prepare(request) {
      const listId = (request.params as { id: string }).id;
      const query = uploadQuery.safeParse(request.query ?? {});
      if (!query.success) return schemaRefusal(query.error);
      if (typeof request.body !== 'string' || request.body.length === 0)
        return {
          ok: false,
          refusal: {
            status: 400,
            body: { error: 'bad_request', message: 'body: the list file, as text/csv (UTF-8)' },
          },
        };
      // Checked in full and stored as a pending version: refused at once if unreadable.
      const stored = await ask(
        compliance.UploadVersion,
        { list_id: listId, format: query.data.format, body: request.body, actor: requestLabel(request) },
        originOfRequest(request),
      );
      if (stored.status !== 200) return { ok: false, refusal: stored };
      const { list, version } = stored.body as {
        list: { id: string; name: string; kind: string };
        version: { id: string; version: number; entries: number };
      };
      return {
        ok: true,
        payload: { listId, versionId: version.id, version: version.version, entries: version.entries },
        summary: `put version ${version.version} of the ${list.kind} list ${list.name} (${version.entries} entries) in effect`,
        target: `screening_list:${listId}`,
      };
    },
    async perform(payload, context) {
      const activated = await ask(
        compliance.ActivateVersion,
        {
          list_id: payload.listId,
          version_id: payload.versionId,
          actor: labelOf(context.origin),
          approval_id: context.origin?.approvalId ?? '',
        },
        context.origin,
      );
      if (activated.status !== 200) return activated;
      const rescreened = await rescreenPayees(payload.versionId, context.origin);
      return { status: 200, body: { ...(activated.body as object), rescreened } };
    },
  };
  deps.operations.add(upload);

  /**
   * Screens every merchant's registered payees against the lists now in effect (CONTRACT section 20): a match
   * opens a case (one per payee and version, so a repeat opens nothing new). Best effort after the version is
   * in effect: a failure is answered in `rescreened.error`, and the payee is screened again at its next
   * transfer in any case.
   */
  async function rescreenPayees(versionId: string, origin: CallOrigin | undefined) {
    let payees = 0;
    let matched = 0;
    try {
      let afterMchNo: string | undefined;
      for (;;) {
        const merchants = await deps.merchants.list({ afterMchNo, limit: 200 });
        for (const merchant of merchants.slice(0, 200)) {
          let cursor = '';
          do {
            const page = await callKeepingStatus(
              transfers,
              transfers.ListPayees,
              { mch_no: merchant.mch_no, limit: 200, cursor, with_removed: false },
              options(origin),
            );
            for (const payee of page.payees) {
              payees += 1;
              const answer = await callKeepingStatus(
                compliance,
                compliance.Screen,
                {
                  operation_kind: 'payee',
                  operation_ref: `${payee.payee_id}@${versionId}`,
                  mch_no: merchant.mch_no,
                  amount: '0',
                  name: payee.payee_name,
                  account: payee.payee_account,
                  bank: payee.payee_code,
                  open_case: true,
                },
                options(origin),
              );
              if (answer.outcome !== 'clear') matched += 1;
            }
            cursor = page.next_cursor;
          } while (cursor);
        }
        if (merchants.length <= 200) break;
        afterMchNo = merchants[199]!.mch_no;
      }
      return { payees, matched };
    } catch (err) {
      return { payees, matched, error: err instanceof Error ? err.message : String(err) };
    }
  }
  // Four eyes always (compliance.permissions.ts): the authorisation hook answers 202 before this runs.
  app.put('/admin/screening/lists/:id/entries', { bodyLimit: LIST_BODY_LIMIT }, async (request, reply) => {
    const prepared = await upload.prepare(request);
    return send(
      reply,
      prepared.ok
        ? await upload.perform(prepared.payload, { origin: originOfRequest(request) })
        : prepared.refusal,
    );
  });

  // Cases.
  app.get('/admin/compliance/cases', async (request, reply) => {
    const query = casesQuery.safeParse(request.query ?? {});
    if (!query.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(query.error) });
    const { state, kind, cursor, limit } = query.data;
    return send(
      reply,
      await ask(compliance.ListCases, { state: state ?? '', kind: kind ?? '', cursor: cursor ?? '', limit }),
    );
  });

  app.get<{ Params: { id: string } }>('/admin/compliance/cases/:id', async (request, reply) =>
    send(reply, await ask(compliance.GetCase, { id: request.params.id })),
  );

  app.post<{ Params: { id: string } }>('/admin/compliance/cases/:id/notes', async (request, reply) => {
    const body = noteBody.safeParse(request.body);
    if (!body.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(body.error) });
    return send(
      reply,
      await ask(
        compliance.AddNote,
        { id: request.params.id, text: body.data.text, actor: requestLabel(request) },
        originOfRequest(request),
      ),
    );
  });

  /** The held payout of a case, or the refusal to answer instead. */
  async function heldPayoutOf(
    id: string,
  ): Promise<{ ok: true; view: CaseView; transferNo: string } | HttpResult> {
    const found = await ask(compliance.GetCase, { id });
    if (found.status !== 200) return found;
    const view = found.body as CaseView;
    const payout = view.operations?.find((o) => o.kind === 'payout');
    if (!view.holdsPayout || !payout)
      return { status: 409, body: { error: 'conflict', message: 'the case holds no payout' } };
    return { ok: true, view, transferNo: payout.ref };
  }

  /** Records the decision in compliance, then carries it to transfers; both repeat safely. */
  async function decide(
    decision: 'release' | 'reject',
    payload: { caseId: string; transferNo: string; reason: string },
    origin: CallOrigin | undefined,
  ): Promise<HttpResult> {
    const recorded = await ask(
      compliance.DecideCase,
      {
        id: payload.caseId,
        decision,
        reason: payload.reason,
        actor: labelOf(origin),
        approval_id: origin?.approvalId ?? '',
      },
      origin,
    );
    if (recorded.status !== 200) return recorded;
    try {
      const ref = { transfer_no: payload.transferNo, traceparent: '' };
      const transfer = await callKeepingStatus(
        transfers,
        decision === 'release' ? transfers.ReleaseHeld : transfers.RejectHeld,
        ref,
        options(origin),
      );
      return {
        status: 200,
        body: {
          case: recorded.body,
          transfer: { transferNo: transfer.transfer_no, status: transfer.status },
        },
      };
    } catch (err) {
      // Transfers answers in envelope codes (TRANSFER_NOT_FOUND, ORDER_STATUS_FORBIDS, SERVICE_UNAVAILABLE).
      return refusalOf(fromServiceError(err));
    }
  }

  interface DecisionPayload {
    caseId: string;
    transferNo: string;
    reason: string;
    needsTwo: boolean;
  }
  const release: AdminOperation<DecisionPayload> = {
    action: 'compliance_case.release',
    method: 'POST',
    url: '/admin/compliance/cases/:id/release',
    approverRoles: DESK_APPROVERS,
    async prepare(request) {
      const body = releaseBody.safeParse(request.body ?? undefined);
      if (!body.success) return schemaRefusal(body.error);
      const caseId = (request.params as { id: string }).id;
      const held = await heldPayoutOf(caseId);
      if (!('ok' in held)) return { ok: false, refusal: held };
      // Released already: repeating finishes carrying it to transfers. Anything else but held is refused.
      if (held.view.state !== 'held' && held.view.state !== 'released')
        return {
          ok: false,
          refusal: { status: 409, body: { error: 'conflict', message: `the case is ${held.view.state}` } },
        };
      return {
        ok: true,
        payload: {
          caseId,
          transferNo: held.transferNo,
          reason: body.data?.reason ?? '',
          needsTwo: held.view.releaseNeedsTwo && held.view.state === 'held',
        },
        summary: `release transfer ${held.transferNo} held by case ${caseId} (blocked-list hit)`,
        target: `compliance_case:${caseId}`,
      };
    },
    perform: (payload, context) => decide('release', payload, context.origin),
  };
  deps.operations.add(release);
  app.post('/admin/compliance/cases/:id/release', async (request, reply) => {
    const prepared = await release.prepare(request);
    if (!prepared.ok) return send(reply, prepared.refusal);
    if (prepared.payload.needsTwo && request.actor) {
      // A blocked-list hit: a second compliance or owner person must approve (CONTRACT section 20).
      const row = await deps.approvals.request(request.actor, release, prepared);
      request.auditNote = { done: true };
      return reply
        .code(202)
        .send({ approval: { id: row.id, state: row.state, action: row.action, summary: row.summary } });
    }
    return send(reply, await release.perform(prepared.payload, { origin: originOfRequest(request) }));
  });

  app.post<{ Params: { id: string } }>('/admin/compliance/cases/:id/reject', async (request, reply) => {
    const body = rejectBody.safeParse(request.body);
    if (!body.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(body.error) });
    const held = await heldPayoutOf(request.params.id);
    if (!('ok' in held)) return send(reply, held);
    request.auditNote = { reason: body.data.reason };
    return send(
      reply,
      await decide(
        'reject',
        { caseId: request.params.id, transferNo: held.transferNo, reason: body.data.reason },
        originOfRequest(request),
      ),
    );
  });

  app.post<{ Params: { id: string } }>('/admin/compliance/cases/:id/close', async (request, reply) => {
    const body = closeBody.safeParse(request.body);
    if (!body.success)
      return reply.code(400).send({ error: 'bad_request', message: schemaProblem(body.error) });
    request.auditNote = { reason: body.data.reason, after: { outcome: body.data.outcome } };
    return send(
      reply,
      await ask(
        compliance.CloseCase,
        { id: request.params.id, ...body.data, actor: requestLabel(request) },
        originOfRequest(request),
      ),
    );
  });

  // Rules.
  app.get('/admin/compliance/rules', async (_request, reply) =>
    send(reply, await ask(compliance.GetRules, {})),
  );

  const rules: AdminOperation<{ json: string }> = {
    action: 'compliance_rules.update',
    method: 'PUT',
    url: '/admin/compliance/rules',
    approverRoles: DESK_APPROVERS,
    async prepare(request) {
      const body = rulesBody.safeParse(request.body);
      if (!body.success) return schemaRefusal(body.error);
      return {
        ok: true,
        payload: { json: JSON.stringify(body.data) },
        summary: `set the monitoring rules to ${JSON.stringify(body.data)}`,
        target: 'compliance_rules',
      };
    },
    perform: (payload, context) =>
      ask(compliance.SetRules, { json: payload.json, actor: labelOf(context.origin) }, context.origin),
  };
  deps.operations.add(rules);
  app.put('/admin/compliance/rules', async (request, reply) => {
    const prepared = await rules.prepare(request);
    return send(
      reply,
      prepared.ok
        ? await rules.perform(prepared.payload, { origin: originOfRequest(request) })
        : prepared.refusal,
    );
  });

  registerComplianceReport(app, deps);
}
