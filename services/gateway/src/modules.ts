import type { FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type {
  ComplianceServiceClient,
  LedgerServiceClient,
  PaymentServiceClient,
  RouteAdminClient,
  TransferServiceClient,
} from '@agentpay/proto';
import type { Kysely } from 'kysely';
import { type Approvals, type OperationRegistry, registerApprovals } from './approvals/index.js';
import { registerComplianceAdmin } from './compliance/index.js';
import { createSettingRequests, registerControlsDashboard, registerLimitsAdmin } from './controls/index.js';
import type { Database } from './db/schema.js';
import { registerDeliveriesAdmin } from './deliveries/index.js';
import {
  type AuditLog,
  type PeopleService,
  registerMerchantPeople,
  registerOperatorPeople,
} from './identity/index.js';
import {
  registerLedgerAdmin,
  registerLedgerDashboard,
  registerLedgerStatementsAdmin,
} from './ledger/index.js';
import {
  type MerchantService,
  registerAccountDashboard,
  registerMerchantListAdmin,
  registerMerchantsAdmin,
} from './merchants/index.js';
import { registerOrdersAdmin, registerOrdersDashboard, type Timelines } from './orders/index.js';
import { ADMIN_PERMISSIONS, DASHBOARD_PERMISSIONS } from './permissions.js';
import { registerReconciliationAdmin } from './reconciliation/index.js';
import { registerFiguresAdmin, registerRoutesAdmin } from './routes/index.js';
import type { NotifierClient } from './shared/notifier-client.js';

// Where every module's routes are registered, once per port: the admin port's (behind its authorisation
// hook, admin-api.ts) and the dashboard's (dashboard-api.ts). main.ts builds what they need; a module's own
// routes and permission entries stay in its folder, and src/permissions.ts lists the entries beside this.

export interface ModulesDeps {
  logger: Logger;
  /** The gateway's database, for the modules that keep rows of their own (controls' pending requests). */
  db: Kysely<Database>;
  production: boolean;
  /** GRPC_TIMEOUT_MS: each call to another service (the notifier's has its own, in its client). */
  timeoutMs: number;
  /** RECON_RUN_TIMEOUT_MS: one reconciliation run. */
  reconRunTimeoutMs: number;
  /** API_TIME_ZONE. */
  timeZone: string;
  /** Origins for invitation links: the admin port (console) and the public port (dashboard). */
  consoleBaseUrl: string;
  publicBaseUrl: string;
  platformPublicKeyPem: string;
  /** The session cookies' names, per port. */
  consoleCookie: string;
  dashboardCookie: string;
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  ledger: LedgerServiceClient;
  /** The compliance desk (docs/compliance.md). */
  compliance: ComplianceServiceClient;
  routeAdmin: RouteAdminClient;
  people: PeopleService;
  audit: AuditLog;
  merchants: MerchantService;
  approvals: Approvals;
  /** Four eyes: the modules add the operations a second person may have to approve. */
  operations: OperationRegistry;
  timelines: Timelines;
  notifier: NotifierClient;
}

/** Every module's routes on the admin port; each is in ADMIN_PERMISSIONS (src/modules.test.ts). */
export function registerAdminModules(app: FastifyInstance, deps: ModulesDeps): void {
  const { merchants, operations, timeoutMs, timeZone } = deps;
  registerMerchantsAdmin(app, {
    logger: deps.logger,
    merchants,
    platformPublicKeyPem: deps.platformPublicKeyPem,
  });
  registerMerchantListAdmin(app, { merchants });
  registerLimitsAdmin(app, { merchants, ledger: deps.ledger, timeoutMs, operations });
  registerOperatorPeople(app, {
    people: deps.people,
    audit: deps.audit,
    production: deps.production,
    cookieName: deps.consoleCookie,
    consoleBaseUrl: deps.consoleBaseUrl,
    publicBaseUrl: deps.publicBaseUrl,
    merchantExists: (mchNo) => merchants.get(mchNo),
    permissions: ADMIN_PERMISSIONS,
  });
  registerApprovals(app, { approvals: deps.approvals });
  registerOrdersAdmin(app, {
    payments: deps.payments,
    transfers: deps.transfers,
    timelines: deps.timelines,
    timeoutMs,
  });
  registerDeliveriesAdmin(app, { notifier: deps.notifier });
  registerFiguresAdmin(app, { routeAdmin: deps.routeAdmin, timeoutMs, timeZone });
  registerRoutesAdmin(app, { client: deps.routeAdmin, merchants, timeoutMs, operations });
  registerLedgerAdmin(app, {
    client: deps.ledger,
    merchants,
    timeoutMs,
    timeZone,
    production: deps.production,
    operations,
  });
  registerLedgerStatementsAdmin(app, { client: deps.ledger, merchants, timeoutMs, timeZone });
  registerComplianceAdmin(app, {
    compliance: deps.compliance,
    transfers: deps.transfers,
    merchants,
    approvals: deps.approvals,
    operations,
    timeoutMs,
    timeZone,
  });
  registerReconciliationAdmin(app, {
    ledger: deps.ledger,
    payments: deps.payments,
    merchants,
    timeoutMs,
    runTimeoutMs: deps.reconRunTimeoutMs,
    timeZone,
    operations,
  });
}

/** Every module's routes on the dashboard's calls; each is in DASHBOARD_PERMISSIONS (src/modules.test.ts). */
export function registerDashboardModules(dash: FastifyInstance, deps: ModulesDeps): void {
  registerMerchantPeople(dash, {
    people: deps.people,
    audit: deps.audit,
    production: deps.production,
    cookieName: deps.dashboardCookie,
    publicBaseUrl: deps.publicBaseUrl,
    permissions: DASHBOARD_PERMISSIONS,
  });
  registerAccountDashboard(dash, {
    merchants: deps.merchants,
    platformPublicKeyPem: deps.platformPublicKeyPem,
    notifier: deps.notifier,
  });
  registerOrdersDashboard(dash, {
    payments: deps.payments,
    transfers: deps.transfers,
    timelines: deps.timelines,
    timeoutMs: deps.timeoutMs,
    notifier: deps.notifier,
  });
  registerLedgerDashboard(dash, { client: deps.ledger, timeoutMs: deps.timeoutMs, timeZone: deps.timeZone });
  registerControlsDashboard(dash, {
    requests: createSettingRequests(deps.db),
    merchants: deps.merchants,
    ledger: deps.ledger,
    transfers: deps.transfers,
    timeoutMs: deps.timeoutMs,
  });
}
