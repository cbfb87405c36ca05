import { type CallOrigin, type ComplianceServiceClient, callKeepingStatus } from '@agentpay/proto';
import { isAppError } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { adminCall, type HttpResult } from '../approvals/index.js';

// How the desk's routes call the compliance service and turn its refusals (or transfers') into the admin
// API's answers; shared by compliance.routes.ts and compliance-report.routes.ts.

/** A compliance or transfers refusal as the admin API's answer; anything else is its 500. */
export function refusalOf(err: unknown): HttpResult {
  if (isAppError(err)) {
    switch (err.codeName) {
      case 'SERVICE_UNAVAILABLE':
      case 'UPSTREAM_UNAVAILABLE':
        return { status: 503, body: { error: 'unavailable', message: err.detail ?? err.msg } };
      case 'TRANSFER_NOT_FOUND':
        return { status: 404, body: { error: 'not_found', message: err.detail ?? err.msg } };
      case 'ORDER_STATUS_FORBIDS':
        return { status: 409, body: { error: 'conflict', message: err.detail ?? err.msg } };
      case 'INVALID_PARAMETER':
        return { status: 400, body: { error: 'bad_request', message: err.detail ?? err.msg } };
      default:
        throw err;
    }
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
        body: { error: 'unavailable', message: `compliance is unavailable: ${message}` },
      };
    default:
      throw err;
  }
}

/** Calls compliance; answers its JSON reply, or the refusal as an HttpResult. */
export function complianceCaller(compliance: ComplianceServiceClient, timeoutMs: number) {
  return async function ask<Req>(
    method: (request: Req, callback: grpc.requestCallback<{ json: string }>) => grpc.ClientUnaryCall,
    request: Req,
    origin?: CallOrigin,
    status = 200,
  ): Promise<HttpResult> {
    try {
      const reply = await callKeepingStatus(compliance, method, request, adminCall(origin, timeoutMs));
      return { status, body: JSON.parse(reply.json) as unknown };
    } catch (err) {
      return refusalOf(err);
    }
  };
}
