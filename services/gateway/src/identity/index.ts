// Identity: the people of the console and of the dashboard, their sessions and tokens, THE authorisation
// point (authorize.ts) with the permission table's shape, and the audit log. One module in process, as
// Hyperswitch keeps core/user beside services/authorization: what other modules and main.ts may use is
// exported here and nowhere else, so moving identity into a service of its own is a matter of this file.

export {
  type Actor,
  MERCHANT_ROLES,
  type MerchantRole,
  OPERATOR_ROLES,
  type OperatorRole,
  SYSTEM_DEV,
} from './actor.js';
export { type AuditEntry, type AuditLog, createAuditLog } from './audit-log.js';
export { type AuditNote, type FourEyes, installAuthorization, sessionCookieName } from './authorize.js';
export { peopleErrorReply, registerMerchantPeople, registerOperatorPeople } from './people.routes.js';
export { createPeopleService, type PeopleService } from './people.service.js';
export { PEOPLE_ADMIN_PERMISSIONS } from './people-admin.permissions.js';
export { PEOPLE_DASHBOARD_PERMISSIONS } from './people-dashboard.permissions.js';
export { PeopleError } from './people-errors.js';
export { ALL, merchant, of, only, route, team } from './permission-helpers.js';
export { allows, type Permission, permissionIndex, permissionTable } from './permissions.js';
export { createSecretBox, peopleSecret } from './secret-box.js';
