import type { Logger } from '@agentpay/logger';
import { type ComplianceServiceHandlers, toServiceError } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import type { Cases } from './cases/cases.service.js';
import { ComplianceError } from './errors.js';
import type { createLists } from './lists/lists.service.js';
import type { RulesStore } from './rules/rules.js';
import type { Counterparty, Screen } from './screening/screening.js';

// The ComplianceService's handlers: each maps its request, calls one use case and answers; refusals become a
// gRPC status once (below). No handler reads the database.

function toGrpcError(err: unknown, logger: Logger): Partial<grpc.ServiceError> {
  if (!(err instanceof ComplianceError)) return toServiceError(err, logger);
  switch (err.code) {
    case 'INVALID':
      return toServiceError(new AppError('INVALID_PARAMETER', err.message), logger);
    case 'NOT_FOUND':
      return { code: grpc.status.NOT_FOUND, details: err.message };
    case 'CONFLICT':
      return { code: grpc.status.FAILED_PRECONDITION, details: err.message };
    default: {
      const unreachable: never = err.code;
      return unreachable;
    }
  }
}

function handle<Req, Res>(
  logger: Logger,
  fn: (request: Req) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (response) => callback(null, response),
      (err: unknown) => callback(toGrpcError(err, logger)),
    );
  };
}

const json = (value: unknown) => ({ json: JSON.stringify(value) });

export function createComplianceHandlers(deps: {
  logger: Logger;
  screen: Screen;
  lists: ReturnType<typeof createLists>;
  cases: Cases;
  rules: RulesStore;
}): ComplianceServiceHandlers {
  const { logger, screen, lists, cases, rules } = deps;
  return {
    Screen: handle(logger, async (req) => {
      const amount = Number(req.amount);
      if (!Number.isSafeInteger(amount) || amount < 0)
        throw new AppError('INVALID_PARAMETER', 'amount must be centavos');
      const result = await screen(
        {
          operationKind: req.operation_kind as Counterparty['operationKind'],
          operationRef: req.operation_ref,
          mchNo: req.mch_no,
          amount,
          name: req.name,
          rfc: req.rfc,
          curp: req.curp,
          account: req.account,
          bank: req.bank,
          claveRastreo: req.clave_rastreo,
        },
        req.open_case,
      );
      return {
        outcome: result.outcome,
        list_kind: result.match?.listKind ?? '',
        list_id: result.match?.listId ?? '',
        score: result.match?.score ?? 0,
        case_id: result.caseId ?? '',
        hold: result.hold,
      };
    }),
    CreateList: handle(logger, async (req) =>
      json(await lists.create({ name: req.name, kind: req.kind, actor: req.actor })),
    ),
    ListLists: handle(logger, async () => json({ lists: await lists.all() })),
    UploadVersion: handle(logger, async (req) =>
      json(await lists.upload({ listId: req.list_id, format: req.format, body: req.body, actor: req.actor })),
    ),
    ActivateVersion: handle(logger, async (req) =>
      json(
        await lists.activate({
          listId: req.list_id,
          versionId: req.version_id,
          actor: req.actor,
          approvalId: req.approval_id,
        }),
      ),
    ),
    ListCases: handle(logger, async (req) =>
      json(await cases.list({ state: req.state, kind: req.kind, cursor: req.cursor, limit: req.limit })),
    ),
    GetCase: handle(logger, async (req) => json(await cases.get(req.id))),
    AddNote: handle(logger, async (req) => json(await cases.note(req.id, req.text, req.actor))),
    DecideCase: handle(logger, async (req) =>
      json(
        await cases.decide({
          id: req.id,
          decision: req.decision,
          reason: req.reason,
          actor: req.actor,
          approvalId: req.approval_id,
        }),
      ),
    ),
    CloseCase: handle(logger, async (req) =>
      json(await cases.close({ id: req.id, outcome: req.outcome, reason: req.reason, actor: req.actor })),
    ),
    GetRules: handle(logger, async () => json(await rules.get())),
    SetRules: handle(logger, async (req) => json(await rules.set(req.json, req.actor))),
    Report: handle(logger, async (req) => {
      const from = new Date(req.from);
      const to = new Date(req.to);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from >= to)
        throw new AppError('INVALID_PARAMETER', 'from and to must be instants, from before to');
      return json(await cases.report(req.kind, from, to));
    }),
  };
}
