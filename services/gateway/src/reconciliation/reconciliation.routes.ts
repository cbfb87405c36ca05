import { actionsFor, DISCREPANCY_KINDS, DISCREPANCY_STATES, RESOLUTION_ACTIONS } from '@agentpay/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from '@agentpay/http';
import {
  call,
  callKeepingStatus,
  type Discrepancy__Output,
  type LedgerServiceClient,
  type PaymentServiceClient,
  type PayOrder__Output,
} from '@agentpay/proto';
import { formatWireTime, isAppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import {
  type AdminOperation,
  adminCall,
  type HttpResult,
  type OperationRegistry,
  originOfRequest,
  runAtOnce,
} from '../approvals/index.js';
import type { MerchantService } from '../merchants/index.js';
import { badRequest, schemaProblem } from '../shared/schema-problem.js';

// Reconciliation for operators (CONTRACT.md section 14): runs, the discrepancies they found, and their
// resolution. The ledger owns runs and discrepancies; the gateway adds what only it can: the merchant of
// a deposit's order (payments' LocatePayOrder) and, for `apply`, the sync through payments that makes the
// order pay and call back as usual before the ledger records the resolution.

/** A calendar day that exists, as yyyy-MM-dd. */
const day = z
  .string({ error: 'required, a string yyyy-MM-dd' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be yyyy-MM-dd')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, 'must be a real calendar day');

const routeId = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9-]{1,64}$/, 'lowercase letters, digits and - only');

const runBody = z.strictObject({ day, routeId: routeId.optional() });

const listQuery = z.strictObject({
  state: z.enum(DISCREPANCY_STATES, { error: 'must be open or resolved' }).optional(),
  kind: z.enum(DISCREPANCY_KINDS, { error: `must be one of ${DISCREPANCY_KINDS.join(', ')}` }).optional(),
  day: day.optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'at least 1')
    .max(500, 'at most 500')
    .optional(),
  after: z.string().max(100, 'at most 100 characters').optional(),
});

const runsQuery = z.strictObject({
  day: day.optional(),
  routeId: routeId.optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'at least 1')
    .max(500, 'at most 500')
    .optional(),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'must be the next of an earlier page')
    .optional(),
});

const resolveBody = z.strictObject({
  action: z.enum(RESOLUTION_ACTIONS, { error: 'must be apply, credit or return' }),
  reason: z
    .string({ error: 'required, a string' })
    .trim()
    .min(1, 'required')
    .max(500, 'at most 500 characters'),
  // Before people signed in, a free-text name. The resolution's operator is now the person behind the
  // request (the actor's label, passed to the ledger as metadata); this is kept for callers that still send
  // it and read only where no person is named.
  operator: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'at most 100 characters')
    .optional(),
});

const discrepancyId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

export interface ReconciliationAdminDeps {
  ledger: LedgerServiceClient;
  payments: PaymentServiceClient;
  merchants: MerchantService;
  timeoutMs: number;
  /** Reconciliation runs stream a whole day's statement: their own, longer deadline. */
  runTimeoutMs: number;
  timeZone: string;
  /** Where the resolution's operation is added, for four eyes (approvals/admin-operation.ts). */
  operations?: OperationRegistry;
}

/** A resolution as checked, and as an approval stores it. */
interface ResolutionPayload {
  id: string;
  action: (typeof RESOLUTION_ACTIONS)[number];
  reason: string;
  /** The merchant to credit or return for, when the discrepancy names none (from its order). */
  mchNo: string;
  /** `apply`: the order to sync. */
  orderNo: string;
  /** The old free-text operator, for a request with no person behind it. */
  operator?: string | undefined;
}

/** A ledger call whose refusal keeps its gRPC status (these RPCs answer NOT_FOUND, INVALID_ARGUMENT, FAILED_PRECONDITION). */
function ledgerCall<Req, Res>(
  client: LedgerServiceClient,
  method: (request: Req, callback: grpc.requestCallback<Res>) => grpc.ClientUnaryCall,
  request: Req,
  options: { timeoutMs: number; metadata?: grpc.Metadata },
): Promise<Res> {
  return callKeepingStatus(client, method, request, options);
}

/** Centavos to pesos for display (exact: centavos are integers below 2^53). */
const pesos = (centavos: number | string) => Number(centavos) / 100;

/** One side of a discrepancy as the ledger stored it (JSON, centavos) with its amounts in pesos. */
function side(json: string): Record<string, unknown> {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { unreadable: json };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value };
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      /amount$/i.test(key) &&
      (typeof field === 'number' || (typeof field === 'string' && /^-?\d+$/.test(field)))
        ? pesos(field)
        : field;
  }
  return out;
}

export function registerReconciliationAdmin(app: FastifyInstance, deps: ReconciliationAdminDeps): void {
  const { ledger, payments, timeZone } = deps;
  const time = (iso: string) => (iso ? formatWireTime(new Date(iso), timeZone) : undefined);

  /** The order a deposit's virtual account belongs to, when payments has it. */
  const locate = async (orderNo: string): Promise<PayOrder__Output | undefined> => {
    if (!orderNo) return undefined;
    try {
      return await call(
        payments,
        payments.LocatePayOrder,
        { order_no: orderNo },
        { timeoutMs: deps.timeoutMs },
      );
    } catch (err) {
      if (isAppError(err) && err.codeName === 'ORDER_NOT_FOUND') return undefined;
      throw err;
    }
  };

  const view = async (item: Discrepancy__Output) => {
    const platform = side(item.platform_json);
    if (item.order_no) platform['orderNo'] ??= item.order_no;
    if (item.transfer_no) platform['transferNo'] ??= item.transfer_no;
    let mchNo = item.mch_no || (platform['mchNo'] as string | undefined);
    if (!mchNo && item.order_no) mchNo = (await locate(item.order_no))?.mch_no;
    if (mchNo) platform['mchNo'] = mchNo;
    return {
      id: item.id,
      kind: item.kind,
      routeId: item.route_id,
      day: item.day,
      amount: pesos(item.amount),
      platform,
      channel: side(item.channel_json),
      state: item.state,
      createdAt: time(item.created_at),
      ...(item.state === 'resolved' && {
        resolution: {
          action: item.resolution_action,
          operator: item.resolution_operator,
          reason: item.resolution_reason,
          resolvedAt: time(item.resolved_at),
          ...(item.resolution_ref && { reference: item.resolution_ref }),
          ...(item.resolution_status && { status: item.resolution_status }),
          ...(item.resolution_approval_id && { approvalId: item.resolution_approval_id }),
        },
      }),
    };
  };

  /** The ledger's and payments' refusals as HTTP answers; anything else is the admin API's 500. */
  const refusalOf = (err: unknown): HttpResult => {
    if (isAppError(err)) {
      if (err.codeName === 'SERVICE_UNAVAILABLE' || err.codeName === 'UPSTREAM_UNAVAILABLE') {
        return { status: 503, body: { error: 'unavailable', message: err.detail ?? err.msg } };
      }
      throw err;
    }
    const serviceError = err as Partial<grpc.ServiceError>;
    const message = serviceError.details ?? 'refused';
    switch (serviceError.code) {
      case grpc.status.NOT_FOUND:
        return { status: 404, body: { error: 'not_found', message } };
      case grpc.status.INVALID_ARGUMENT:
        return { status: 400, body: { error: 'bad_request', message } };
      case grpc.status.FAILED_PRECONDITION:
      case grpc.status.ALREADY_EXISTS:
        return { status: 409, body: { error: 'conflict', message } };
      case grpc.status.UNAVAILABLE:
      case grpc.status.DEADLINE_EXCEEDED:
        return {
          status: 503,
          body: { error: 'unavailable', message: `the ledger is unavailable: ${message}` },
        };
      default:
        throw err;
    }
  };
  const fail = (reply: FastifyReply, err: unknown) => {
    const result = refusalOf(err);
    return reply.code(result.status).send(result.body);
  };
  const opts = (request: FastifyRequest, timeoutMs = deps.timeoutMs) =>
    adminCall(originOfRequest(request), timeoutMs);

  app.post('/admin/reconciliations', async (request, reply) => {
    const body = runBody.safeParse(request.body ?? {});
    if (!body.success) return badRequest(reply, body.error);
    try {
      const result = await ledgerCall(
        ledger,
        ledger.RunReconciliation,
        { day: body.data.day, route_id: body.data.routeId ?? '' },
        opts(request, deps.runTimeoutMs),
      );
      request.log.info({ day: body.data.day, routeId: body.data.routeId }, 'reconciliation run');
      return {
        day: result.day,
        routes: result.routes.map((r) => ({
          routeId: r.route_id,
          lines: Number(r.lines),
          matched: Number(r.matched),
          pending: Number(r.pending),
          discrepancies: Number(r.discrepancies),
          returned: Number(r.returned),
        })),
      };
    } catch (err) {
      return fail(reply, err);
    }
  });

  // The runs, newest first, by day and route: each attempt with its counts and state (a failed one with why).
  app.get('/admin/reconciliations', async (request, reply) => {
    const query = runsQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, query.error);
    const { day: onDay, routeId: onRoute, limit, cursor } = query.data;
    try {
      const page = await ledgerCall(
        ledger,
        ledger.ListReconciliationRuns,
        { day: onDay ?? '', route_id: onRoute ?? '', limit: limit ?? 50, before_id: cursor ?? '' },
        opts(request),
      );
      return {
        items: page.items.map((run) => ({
          id: run.id,
          day: run.day,
          routeId: run.route_id,
          state: run.status,
          startedAt: time(run.started_at),
          ...(run.finished_at && { finishedAt: time(run.finished_at) }),
          lines: Number(run.lines),
          matched: Number(run.matched),
          pending: Number(run.pending),
          discrepancies: Number(run.discrepancies),
          returned: Number(run.returned),
          ...(run.error && { error: run.error }),
        })),
        ...(page.next_before_id && { next: page.next_before_id }),
      };
    } catch (err) {
      return fail(reply, err);
    }
  });

  app.get('/admin/discrepancies', async (request, reply) => {
    const query = listQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, query.error);
    const { state, kind, day: onDay, limit, after } = query.data;
    try {
      const page = await ledgerCall(
        ledger,
        ledger.ListDiscrepancies,
        {
          state: state ?? '',
          kind: kind ?? '',
          day: onDay ?? '',
          limit: limit ?? 100,
          after_id: after ?? '',
        },
        opts(request),
      );
      const items = [];
      for (const item of page.items) items.push(await view(item));
      return { items, ...(page.next_after_id && { next: page.next_after_id }) };
    } catch (err) {
      return fail(reply, err);
    }
  });

  type ById = { Params: { id: string } };

  app.get<ById>('/admin/discrepancies/:id', async (request, reply) => {
    if (!discrepancyId.safeParse(request.params.id).success) {
      return reply.code(404).send({ error: 'not_found', message: 'no such discrepancy' });
    }
    try {
      return await view(
        await ledgerCall(ledger, ledger.GetDiscrepancy, { id: request.params.id }, opts(request)),
      );
    } catch (err) {
      return fail(reply, err);
    }
  });

  const refuse = (status: number, error: string, message: string) => ({
    ok: false as const,
    refusal: { status, body: { error, message } },
  });

  // Four eyes (services/gateway/README.md) on credit and return, which move money: everything the resolution
  // would refuse is refused here first. Executed twice for one approval, the ledger answers "already
  // resolved" the second time, and the resolution names that approval: that is the first execution's answer.
  const resolve: AdminOperation<ResolutionPayload> = {
    action: 'discrepancy.resolve',
    method: 'POST',
    url: '/admin/discrepancies/:id/resolve',
    async prepare(request) {
      const body = resolveBody.safeParse(request.body);
      if (!body.success) return refuse(400, 'bad_request', schemaProblem(body.error));
      const id = (request.params as { id: string }).id;
      if (!discrepancyId.safeParse(id).success) return refuse(404, 'not_found', 'no such discrepancy');
      const { action, reason, operator } = body.data;
      if (!request.actor && !operator) return refuse(400, 'bad_request', 'operator: required');
      try {
        const item = await ledgerCall(ledger, ledger.GetDiscrepancy, { id }, opts(request));
        // Refused here before anything moves (a sync is not undone by a later refusal).
        if (item.state === 'resolved')
          return refuse(409, 'conflict', `already resolved (${item.resolution_action})`);
        const fits = actionsFor(item.kind);
        if (!fits.includes(action)) {
          return refuse(
            400,
            'bad_request',
            `action: ${action} does not resolve a ${item.kind} (${fits.length ? `use ${fits.join(' or ')}` : 'it has no action: investigate with the channel'})`,
          );
        }
        const order = await locate(item.order_no);
        if ((action === 'apply' || action === 'credit') && !order && !item.mch_no)
          return refuse(409, 'conflict', 'the deposit names no order the platform has; use return');
        const mchNo = item.mch_no || order?.mch_no || '';
        return {
          ok: true,
          payload: { id: item.id, action, reason, mchNo, orderNo: order?.order_no ?? '', operator },
          summary: `${action} discrepancy ${item.id} (${item.kind}, ${pesos(item.amount).toFixed(2)} MXN${mchNo ? `, merchant ${mchNo}` : ''}): ${reason}`,
          target: `discrepancy:${item.id}`,
        };
      } catch (err) {
        return { ok: false, refusal: refusalOf(err) };
      }
    },
    async perform(payload, context) {
      const { id, action, reason } = payload;
      const options = adminCall(context.origin, deps.timeoutMs);
      try {
        if (action === 'apply' && payload.orderNo) {
          const order = await locate(payload.orderNo);
          if (order) {
            // The normal sync path: payments asks the channel, the order pays and calls back as usual, and the
            // ledger books the pay-in from its event.
            const merchant = await deps.merchants.forAuth(order.mch_no);
            if (!merchant) throw new Error(`merchant ${order.mch_no} of order ${order.order_no} is gone`);
            const synced = await call(
              payments,
              payments.SyncPayOrder,
              {
                merchant: {
                  mch_no: merchant.mchNo,
                  app_id: order.app_id,
                  fee_percent_bps: merchant.feePercentBps,
                  fee_fixed_centavos: merchant.feeFixedCentavos,
                  settle_type: merchant.settleType,
                  traceparent: '',
                  merchant_name: merchant.name,
                },
                order_no: order.order_no,
                biz_order_no: '',
              },
              { timeoutMs: deps.timeoutMs },
            );
            if (synced.order?.status !== 'success') {
              return {
                status: 409,
                body: {
                  error: 'conflict',
                  message: `the order did not pay on sync (it is ${synced.order?.status ?? 'unknown'}); nothing was resolved`,
                },
              };
            }
          }
        }
        const resolved = await ledgerCall(
          ledger,
          ledger.ResolveDiscrepancy,
          {
            id,
            action,
            reason,
            // Read by the ledger only when the call names no person (x-agentpay-actor wins).
            operator: context.origin?.actor.label ?? payload.operator ?? '',
            mch_no: payload.mchNo,
          },
          options,
        );
        return { status: 200, body: await view(resolved) };
      } catch (err) {
        const approvalId = context.origin?.approvalId;
        if (approvalId && (err as Partial<grpc.ServiceError>).code === grpc.status.FAILED_PRECONDITION) {
          const item = await ledgerCall(ledger, ledger.GetDiscrepancy, { id }, options).catch(
            () => undefined,
          );
          if (item?.resolution_approval_id === approvalId) return { status: 200, body: await view(item) };
        }
        return refusalOf(err);
      }
    },
  };
  deps.operations?.add(resolve);

  app.post<ById>('/admin/discrepancies/:id/resolve', async (request, reply) => {
    const result = await runAtOnce(resolve, request);
    if (result.status < 300) request.log.info({ id: request.params.id }, 'discrepancy resolved');
    return reply.code(result.status).send(result.body);
  });
}
