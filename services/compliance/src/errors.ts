// The compliance service's refusals, mapped once to gRPC statuses (compliance.grpc.ts) and by the gateway to
// 400, 404 and 409.
export const COMPLIANCE_ERRORS = ['INVALID', 'NOT_FOUND', 'CONFLICT'] as const;
export type ComplianceErrorCode = (typeof COMPLIANCE_ERRORS)[number];

export class ComplianceError extends Error {
  constructor(
    readonly code: ComplianceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new ComplianceError('INVALID', message);
export const notFound = (message: string) => new ComplianceError('NOT_FOUND', message);
export const conflict = (message: string) => new ComplianceError('CONFLICT', message);
