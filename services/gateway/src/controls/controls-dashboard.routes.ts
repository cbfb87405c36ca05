import { limitsView } from '@agentpay/api';
import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { call, type LedgerServiceClient, type TransferServiceClient } from '@agentpay/proto';
import { isAppError } from '@agentpay/wire';
import { z } from 'zod';
import { type Actor, PeopleError } from '../identity/index.js';
import { isCidr, type MerchantService } from '../merchants/index.js';
import { schemaProblem } from '../shared/schema-problem.js';
import { payeeView, usageView } from './controls.views.js';
import type { SettingRequestRow, SettingRequests } from './settings.repository.js';

// The merchant dashboard's controls on where money goes (CONTRACT section 19; docs/console.md "Dashboard
// API"): the limits in effect with today's and this month's usage, the registered payees (register,
// approve by a second person, remove) and the security settings (registered payees only, allowed
// addresses). Every call acts on the signed-in person's merchant (the session's scope). Who may call what
// is controls-dashboard.permissions.ts; the rules a role alone cannot say (never the registrant, allowed
// addresses by the owner, turning payees-only off by a second owner or admin) are here.

export interface ControlsDashboardDeps {
  /** The merchants' pending requests to relax a control (settings.repository.ts). */
  requests: SettingRequests;
  merchants: MerchantService;
  ledger: LedgerServiceClient;
  transfers: TransferServiceClient;
  timeoutMs: number;
}

const MAX_ALLOWED_IPS = 50;

const registerBody = z
  .object({
    payeeType: z.string().trim().min(1).max(32),
    payeeAccount: z.string().trim().min(1).max(100),
    payeeName: z.string().trim().min(1).max(100),
    payeeCode: z.string().trim().max(64).optional(),
  })
  .strict();
const payeesQuery = z
  .object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    withRemoved: z.enum(['true', 'false']).default('false'),
  })
  .strict();
const settingsBody = z
  .object({
    registeredPayeesOnly: z.boolean().optional(),
    allowedIps: z
      .array(z.string().trim().refine(isCidr, 'an address or a CIDR such as 203.0.113.0/24'))
      .max(MAX_ALLOWED_IPS)
      .optional(),
  })
  .strict()
  .refine((b) => b.registeredPayeesOnly !== undefined || b.allowedIps !== undefined, {
    message: 'registeredPayeesOnly or allowedIps',
  });
const payeeId = z.string().min(1).max(64);

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new PeopleError('invalid', schemaProblem(result.error));
}

function actorOf(request: FastifyRequest): Actor & { mchNo: string } {
  const actor = request.actor as Actor | undefined;
  if (actor?.scope.kind !== 'merchant') throw new PeopleError('forbidden', 'not a merchant person');
  return { ...actor, mchNo: actor.scope.mchNo };
}

/** The transfers service's payee refusals in the dashboard's words. */
function payeeRefusal(err: unknown): never {
  if (isAppError(err)) {
    if (err.codeName === 'PAYEE_NOT_REGISTERED') throw new PeopleError('not_found', 'no such payee');
    if (err.codeName === 'INVALID_PAYEE_ACCOUNT' || err.codeName === 'PAYEE_TYPE_NOT_AVAILABLE')
      throw new PeopleError('invalid', err.message);
    if (err.codeName === 'INVALID_PARAMETER') throw new PeopleError('invalid', err.detail ?? err.message);
  }
  throw err;
}

const requestView = (row: SettingRequestRow, me: string) => ({
  id: row.id,
  change: row.change,
  requestedBy: row.requested_by_label,
  requestedByMe: row.requested_by_id === me,
  createdAt: row.requested_at.toISOString(),
});

export function registerControlsDashboard(dash: FastifyInstance, deps: ControlsDashboardDeps): void {
  const { requests, merchants, ledger, transfers } = deps;
  const opts = { timeoutMs: deps.timeoutMs };

  const settingsOf = async (mchNo: string, me: string) => {
    const merchant = await merchants.get(mchNo);
    return {
      registeredPayeesOnly: merchant.registeredPayeesOnly,
      allowedIps: merchant.allowedIps,
      requests: (await requests.pending(mchNo)).map((r) => requestView(r, me)),
    };
  };

  dash.get('/dashboard/api/limits', async (request) => {
    const { mchNo } = actorOf(request);
    const [limits, usage] = await Promise.all([
      merchants.limitsOf(mchNo),
      call(ledger, ledger.GetPayoutUsage, { mch_no: mchNo }, opts),
    ]);
    return { limits: limitsView(limits), usage: usageView(usage) };
  });

  dash.get('/dashboard/api/payees', async (request) => {
    const actor = actorOf(request);
    const q = parse(payeesQuery, request.query);
    const page = await call(
      transfers,
      transfers.ListPayees,
      { mch_no: actor.mchNo, limit: q.limit, cursor: q.cursor ?? '', with_removed: q.withRemoved === 'true' },
      opts,
    ).catch(payeeRefusal);
    return {
      items: page.payees.map((p) => ({ ...payeeView(p), registeredByMe: p.registered_by === actor.id })),
      ...(page.next_cursor ? { next: page.next_cursor } : {}),
    };
  });

  dash.post('/dashboard/api/payees', async (request, reply) => {
    const actor = actorOf(request);
    const body = parse(registerBody, request.body);
    const { mchNo } = actor;
    const answer = await call(
      transfers,
      transfers.RegisterPayee,
      {
        merchant: { mch_no: mchNo },
        payee_type: body.payeeType,
        payee_account: body.payeeAccount,
        payee_name: body.payeeName,
        payee_code: body.payeeCode ?? '',
        registered_by: actor.id,
      },
      opts,
    ).catch(payeeRefusal);
    if (!answer.payee) throw new Error('RegisterPayee answered no payee');
    const payee = { ...payeeView(answer.payee), registeredByMe: answer.payee.registered_by === actor.id };
    request.auditNote = { target: `payee:${payee.payeeId}`, after: payee };
    return reply.code(201).send({ payee, created: answer.created });
  });

  dash.post<{ Params: { payeeId: string } }>('/dashboard/api/payees/:payeeId/approve', async (request) => {
    const actor = actorOf(request);
    const id = parse(payeeId, request.params.payeeId);
    const page = await call(
      transfers,
      transfers.ApprovePayee,
      { mch_no: actor.mchNo, payee_id: id, actor: actor.id },
      opts,
    ).catch((err: unknown) => {
      if (isAppError(err) && err.codeName === 'INVALID_PARAMETER')
        throw new PeopleError('forbidden', 'the person who registered a payee cannot approve it');
      return payeeRefusal(err);
    });
    const payee = { ...payeeView(page), registeredByMe: page.registered_by === actor.id };
    request.auditNote = { target: `payee:${id}`, after: payee };
    return { payee };
  });

  dash.post<{ Params: { payeeId: string } }>('/dashboard/api/payees/:payeeId/remove', async (request) => {
    const actor = actorOf(request);
    const id = parse(payeeId, request.params.payeeId);
    const removed = await call(
      transfers,
      transfers.RemovePayee,
      { mch_no: actor.mchNo, payee_id: id, actor: actor.id },
      opts,
    ).catch(payeeRefusal);
    const payee = { ...payeeView(removed), registeredByMe: removed.registered_by === actor.id };
    request.auditNote = { target: `payee:${id}`, after: payee };
    return { payee };
  });

  dash.get('/dashboard/api/settings', async (request) => {
    const actor = actorOf(request);
    return settingsOf(actor.mchNo, actor.id);
  });

  dash.patch('/dashboard/api/settings', async (request, reply) => {
    const actor = actorOf(request);
    const body = parse(settingsBody, request.body);
    const before = await merchants.get(actor.mchNo);
    if (body.allowedIps !== undefined && !actor.roles.includes('owner')) {
      throw new PeopleError('forbidden', "only the merchant's owner changes the allowed addresses");
    }
    // Turning payees-only off relaxes a control: it waits for a second owner or admin of the merchant.
    if (body.registeredPayeesOnly === false && before.registeredPayeesOnly) {
      if (body.allowedIps !== undefined) {
        throw new PeopleError(
          'invalid',
          'turning registeredPayeesOnly off waits for a second person: change allowedIps on its own',
        );
      }
      const row = await requests.insert({
        mchNo: actor.mchNo,
        requestedById: actor.id,
        requestedByLabel: actor.label,
      });
      if (!row) throw new PeopleError('conflict', 'a request to turn it off is already waiting for approval');
      const view = requestView(row, actor.id);
      request.auditNote = { target: `merchant:${actor.mchNo}`, after: { request: view } };
      return reply.code(202).send({ request: view });
    }
    await merchants.update(actor.mchNo, {
      ...(body.registeredPayeesOnly === true && { registeredPayeesOnly: true }),
      ...(body.allowedIps !== undefined && { allowedIps: [...new Set(body.allowedIps)] }),
    });
    request.auditNote = {
      target: `merchant:${actor.mchNo}`,
      before: { registeredPayeesOnly: before.registeredPayeesOnly, allowedIps: before.allowedIps },
      after: body,
    };
    return { settings: await settingsOf(actor.mchNo, actor.id) };
  });

  dash.post<{ Params: { id: string } }>('/dashboard/api/settings/requests/:id/approve', async (request) => {
    const actor = actorOf(request);
    const row = await requests.find(actor.mchNo, request.params.id);
    if (!row) throw new PeopleError('not_found', 'no such request');
    if (row.state !== 'pending') throw new PeopleError('conflict', `the request is ${row.state} already`);
    if (row.requested_by_id === actor.id) {
      throw new PeopleError('forbidden', 'a second owner or admin approves it, not the person who asked');
    }
    await merchants.update(
      actor.mchNo,
      { registeredPayeesOnly: false },
      {
        also: async (trx) => {
          const won = await requests.decide(
            { mchNo: actor.mchNo, id: row.id, state: 'approved', by: actor.id },
            trx,
          );
          if (!won) throw new PeopleError('conflict', 'the request was decided meanwhile');
        },
      },
    );
    request.auditNote = {
      target: `merchant:${actor.mchNo}`,
      after: { registeredPayeesOnly: false, request: row.id },
    };
    return { settings: await settingsOf(actor.mchNo, actor.id) };
  });

  dash.post<{ Params: { id: string } }>('/dashboard/api/settings/requests/:id/cancel', async (request) => {
    const actor = actorOf(request);
    const row = await requests.find(actor.mchNo, request.params.id);
    if (!row) throw new PeopleError('not_found', 'no such request');
    const won = await requests.decide({ mchNo: actor.mchNo, id: row.id, state: 'cancelled', by: actor.id });
    if (!won) throw new PeopleError('conflict', `the request is ${row.state} already`);
    request.auditNote = { target: `merchant:${actor.mchNo}`, after: { cancelled: row.id } };
    return { settings: await settingsOf(actor.mchNo, actor.id) };
  });
}
