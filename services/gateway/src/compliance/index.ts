// The compliance desk (CONTRACT section 20, docs/compliance.md): screening lists, cases, monitoring rules
// and reports on the admin port. The desk's state lives in the compliance service; this module is where
// people read and change it. A held transfer's release or rejection is recorded in compliance first, then
// carried to transfers (both calls from here: calls stay one way).

export { COMPLIANCE_PERMISSIONS } from './compliance.permissions.js';
export { type ComplianceAdminDeps, registerComplianceAdmin } from './compliance.routes.js';
