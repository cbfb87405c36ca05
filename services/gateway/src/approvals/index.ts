// Approvals (four eyes, CONTRACT.md section 17): the operations a second person must approve, the requests
// waiting for them, and the rules saying which requests wait. A module that adds such an operation registers
// it with the OperationRegistry; its gRPC calls carry who asked through adminCall.

export {
  type AdminOperation,
  adminCall,
  createOperationRegistry,
  type HttpResult,
  type OperationRegistry,
  originOfRequest,
  runAtOnce,
} from './admin-operation.js';
export { APPROVALS_PERMISSIONS } from './approvals.permissions.js';
export { createFourEyes, registerApprovals } from './approvals.routes.js';
export { APPROVAL_TTL_MS, type Approvals, createApprovals, startApprovalSweep } from './approvals.service.js';
export {
  always,
  merchantChangeNeedsFourEyes,
  resolutionNeedsFourEyes,
  routeChangeNeedsFourEyes,
} from './four-eyes-rules.js';
