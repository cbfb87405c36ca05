import { payoutLimitsToProto, transferBatchView } from '@agentpay/api';
import type { FastifyInstance, FastifyRequest } from '@agentpay/http';
import { call, type TransferServiceClient } from '@agentpay/proto';
import { centavosToAmount, isAppError } from '@agentpay/wire';
import { z } from 'zod';
import { type Actor, PeopleError, type PeopleService } from '../identity/index.js';
import type { MerchantService } from '../merchants/index.js';
import { schemaProblem } from '../shared/schema-problem.js';
import { checkBatchFile, type FileCheck } from './batch-csv.js';
import type { BatchRequestRow, BatchRequests } from './batch-requests.repository.js';

// The merchant dashboard's batch payouts (CONTRACT section 21; docs/merchant-api.md "Batch payouts"): a
// person checks a CSV (every row's errors, nothing stored), requests a file without errors, and a second
// person of the merchant approves it with a current code of their authenticator; only then is the batch
// created in transfers, exactly as the signed transfer/batch creates one (its bizBatchNo the requester's, so
// an approval repeated after a lost answer creates nothing twice). Who may call what is
// batches-dashboard.permissions.ts; the second person and the code are checked here.

export interface BatchesDashboardDeps {
  requests: BatchRequests;
  merchants: MerchantService;
  people: PeopleService;
  transfers: TransferServiceClient;
  timeoutMs: number;
  timeZone: string;
}

/** A 1,000-row file is about 100 KB; the dashboard's other calls keep the API's smaller limit. */
const FILE_BODY_LIMIT = 1_048_576;

const checkBody = z.object({ csv: z.string().max(FILE_BODY_LIMIT) }).strict();
const createBody = z
  .object({
    bizBatchNo: z.string().trim().min(1).max(100),
    csv: z.string().max(FILE_BODY_LIMIT),
    notifyUrl: z.string().trim().url().max(200).optional(),
  })
  .strict();
const approveBody = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'six digits'),
  })
  .strict();
const requestId = z.string().min(1).max(64);

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

/** What the dashboard shows of a file check: amounts in pesos. */
const checkView = (check: FileCheck) => ({
  ok: check.ok,
  problems: check.problems,
  count: check.rows.length,
  amount: centavosToAmount(check.amount),
  rows: check.rows.map((r) => ({
    line: r.line,
    cells: {
      bizTransferNo: r.cells.bizTransferNo,
      amount: r.cells.amount,
      payeeAccount: r.cells.payeeAccount,
      payeeName: r.cells.payeeName,
    },
    errors: r.errors,
    ...(r.item && { item: { ...r.item, amount: centavosToAmount(r.item.amount) } }),
  })),
});

const requestView = (
  row: Pick<
    BatchRequestRow,
    | 'id'
    | 'biz_batch_no'
    | 'count'
    | 'amount'
    | 'state'
    | 'requested_by_id'
    | 'requested_by_label'
    | 'requested_at'
    | 'decided_by_label'
    | 'decided_at'
    | 'batch_no'
  >,
  me: string,
) => ({
  id: row.id,
  bizBatchNo: row.biz_batch_no,
  count: row.count,
  amount: centavosToAmount(row.amount),
  state: row.state,
  requestedBy: row.requested_by_label,
  requestedByMe: row.requested_by_id === me,
  requestedAt: row.requested_at.toISOString(),
  ...(row.decided_by_label && { decidedBy: row.decided_by_label }),
  ...(row.decided_at && { decidedAt: row.decided_at.toISOString() }),
  ...(row.batch_no && { batchNo: row.batch_no }),
});

export function registerBatchesDashboard(dash: FastifyInstance, deps: BatchesDashboardDeps): void {
  const { requests, merchants, people, transfers } = deps;
  const opts = { timeoutMs: deps.timeoutMs };

  dash.get('/dashboard/api/batches', async (request) => {
    const actor = actorOf(request);
    const rows = await requests.latest(actor.mchNo, 20);
    // The state of each batch sent: progress until every item ended, then done with its counts.
    const items = await Promise.all(
      rows.map(async (row) => {
        const view = requestView(row, actor.id);
        if (!row.batch_no) return view;
        const page = await call(
          transfers,
          transfers.GetTransferBatch,
          { merchant: { mch_no: actor.mchNo }, batch_no: row.batch_no, limit: 1 },
          opts,
        ).catch(() => undefined);
        return page?.batch ? { ...view, batch: transferBatchView(page.batch, deps.timeZone) } : view;
      }),
    );
    return { items };
  });

  dash.post('/dashboard/api/batches/check', { bodyLimit: FILE_BODY_LIMIT }, async (request) => {
    actorOf(request);
    return checkView(checkBatchFile(parse(checkBody, request.body).csv));
  });

  dash.post('/dashboard/api/batches', { bodyLimit: FILE_BODY_LIMIT }, async (request, reply) => {
    const actor = actorOf(request);
    const body = parse(createBody, request.body);
    const check = checkBatchFile(body.csv);
    // Nothing is requested while any row is wrong: the answer carries every row's errors.
    if (!check.ok)
      return reply
        .code(400)
        .send({ error: 'bad_request', message: 'the file has errors', check: checkView(check) });
    const row = await requests.insert({
      mchNo: actor.mchNo,
      bizBatchNo: body.bizBatchNo,
      notifyUrl: body.notifyUrl ?? '',
      items: check.rows.flatMap((r) => (r.item ? [r.item] : [])),
      requestedById: actor.id,
      requestedByLabel: actor.label,
    });
    if (!row) throw new PeopleError('conflict', `bizBatchNo ${body.bizBatchNo} was requested already`);
    const view = requestView(row, actor.id);
    request.auditNote = { target: `batch_request:${row.id}`, after: view };
    return reply.code(201).send({ request: view });
  });

  dash.post<{ Params: { id: string } }>('/dashboard/api/batches/:id/approve', async (request) => {
    const actor = actorOf(request);
    const id = parse(requestId, request.params.id);
    const { code } = parse(approveBody, request.body);
    const row = await requests.find(actor.mchNo, id);
    if (!row) throw new PeopleError('not_found', 'no such batch request');
    if (row.state !== 'pending') throw new PeopleError('conflict', `the request is ${row.state} already`);
    if (row.requested_by_id === actor.id)
      throw new PeopleError('forbidden', 'a second person approves it, not the person who requested it');
    if (actor.kind !== 'person' || !(await people.confirmCode(actor.id.replace(/^user:/, ''), code)))
      throw new PeopleError('forbidden', 'the authenticator code is wrong or was used already');
    if (!(await requests.decide(actor.mchNo, id, 'approved', actor)))
      throw new PeopleError('conflict', 'the request was decided meanwhile');

    const merchant = await merchants.forAuth(actor.mchNo);
    if (!merchant?.enabled) {
      await requests.reopen(actor.mchNo, id);
      throw new PeopleError('conflict', 'the merchant is disabled');
    }
    try {
      const { batch } = await call(
        transfers,
        transfers.CreateTransferBatch,
        {
          merchant: {
            mch_no: merchant.mchNo,
            fee_percent_bps: merchant.feePercentBps,
            fee_fixed_centavos: merchant.feeFixedCentavos,
            settle_type: merchant.settleType,
            merchant_name: merchant.name,
            payout_limits: payoutLimitsToProto(merchant.limits.payout),
            registered_payees_only: merchant.registeredPayeesOnly,
          },
          biz_batch_no: row.biz_batch_no,
          notify_url: row.notify_url,
          requested_by: `${row.requested_by_id},${actor.id}`,
          items: row.items.map((item) => ({
            biz_transfer_no: item.bizTransferNo,
            amount: item.amount,
            title: item.title,
            reason: item.reason,
            payee_type: item.payeeType,
            payee_account: item.payeeAccount,
            payee_name: item.payeeName,
            payee_code: item.payeeCode,
            attach: '',
          })),
        },
        opts,
      );
      if (!batch) throw new Error('CreateTransferBatch answered no batch');
      await requests.created(actor.mchNo, id, batch.batch_no);
      const after = await requests.find(actor.mchNo, id);
      const view = after ? requestView(after, actor.id) : undefined;
      request.auditNote = { target: `batch_request:${id}`, after: view };
      return { request: view, batch: transferBatchView(batch, deps.timeZone) };
    } catch (err) {
      // Nothing was created (a refusal) or it is not known yet (unavailable): the request waits again, and
      // approving it once more sends the same bizBatchNo, which never creates the batch twice.
      await requests.reopen(actor.mchNo, id);
      if (isAppError(err) && err.codeName !== 'INTERNAL_ERROR' && err.codeName !== 'SERVICE_UNAVAILABLE')
        throw new PeopleError('conflict', `the batch was refused: ${err.code} ${err.message}`);
      throw err;
    }
  });

  dash.post<{ Params: { id: string } }>('/dashboard/api/batches/:id/reject', async (request) => {
    const actor = actorOf(request);
    const id = parse(requestId, request.params.id);
    const row = await requests.find(actor.mchNo, id);
    if (!row) throw new PeopleError('not_found', 'no such batch request');
    // The requester withdrawing their own request cancels it; anyone else rejects it.
    const state = row.requested_by_id === actor.id ? 'cancelled' : 'rejected';
    if (!(await requests.decide(actor.mchNo, id, state, actor)))
      throw new PeopleError('conflict', `the request is ${row.state} already`);
    const after = await requests.find(actor.mchNo, id);
    request.auditNote = { target: `batch_request:${id}`, after: after && requestView(after, actor.id) };
    return { request: after && requestView(after, actor.id) };
  });
}
