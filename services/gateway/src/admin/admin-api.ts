import { SETTLE_TYPES } from '@agentpay/api';
import {
  createHttpServer,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { MerchantAdminError, type MerchantService } from '../merchants/merchant.service.js';
import type { AuditLog } from '../people/audit-log.js';
import { type FourEyes, installAuthorization } from '../people/authorize.js';
import { peopleErrorReply, registerOperatorPeople } from '../people/people.routes.js';
import type { PeopleService } from '../people/people.service.js';
import { PeopleError } from '../people/people-errors.js';
import { ADMIN_PERMISSIONS } from '../people/permissions.js';
import { schemaProblem } from './schema-problem.js';

export interface AdminApiDeps {
  logger: Logger;
  /**
   * ADMIN_TOKEN: system:dev outside production; in production only the first owner's creation
   * (people/authorize.ts), and unset once they are in.
   */
  adminToken?: string | undefined;
  production: boolean;
  db: Kysely<Database>;
  people: PeopleService;
  audit: AuditLog;
  /** The console's session cookie name (`__Host-` prefixed in production). */
  cookieName: string;
  /** Origins for invitation links: the admin port (console) and the public port (dashboard). */
  consoleBaseUrl: string;
  publicBaseUrl: string;
  /** Four eyes: takes over the requests whose permission says they need a second person. */
  fourEyes?: FourEyes;
  platformPublicKeyPem: string;
  merchants: MerchantService;
  /** Served at GET /metrics (Prometheus text), unauthenticated like /healthz: the admin port is internal. */
  registry?: Registry;
  /** Further admin routes (routes, ledger, callbacks), behind the same authorisation hook. */
  extend?: (app: FastifyInstance) => void;
}

const feeRate = z.object({
  /** Percent part in basis points: 60 = 0.60 %. */
  percentBps: z.number().int().min(0).max(10_000),
  /** Fixed part per order, centavos. */
  fixedCentavos: z.number().int().min(0).max(100_000_000),
});
const mchNo = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
const appIds = z.array(z.string().min(1).max(32)).max(50);

const createMerchant = z.object({
  mchNo,
  name: z.string().min(1).max(100),
  publicKey: z.string().min(1).max(10_000),
  appIds: appIds.optional(),
  feeRate: feeRate.optional(),
  settleType: z.enum(SETTLE_TYPES).optional(),
});

export const updateMerchant = z
  .object({
    name: z.string().min(1).max(100).optional(),
    status: z.enum(['enabled', 'disabled']).optional(),
    appIds: appIds.optional(),
    feeRate: feeRate.optional(),
    settleType: z.enum(SETTLE_TYPES).optional(),
    rateLimitPerS: z.number().int().min(0).max(1_000_000).nullable().optional(),
    addPublicKey: z.string().min(1).max(10_000).optional(),
    revokeKeyIds: z.array(z.string().uuid()).max(10).optional(),
  })
  .strict();

/** Answers 400 naming the first problem of a body that fails its schema. */
export function badRequest(reply: FastifyReply, error: z.ZodError) {
  return reply.code(400).send({ error: 'bad_request', message: schemaProblem(error) });
}

/** The operators' API (services/gateway/README.md): JSON over HTTP behind a bearer token. */
export function buildAdminApi(deps: AdminApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger, { bodyLimit: 1_048_576 });

  // The one authorisation point: every route of this port, in the permission table or refused.
  installAuthorization(app, {
    people: deps.people,
    audit: deps.audit,
    logger: deps.logger,
    kind: 'operator',
    permissions: ADMIN_PERMISSIONS,
    cookieName: deps.cookieName,
    adminToken: deps.adminToken,
    production: deps.production,
    fourEyes: deps.fourEyes,
    open: openPath,
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof MerchantAdminError) {
      const status = { not_found: 404, conflict: 409, invalid: 400 }[error.kind];
      return reply.code(status).send({ error: error.kind, message: error.message });
    }
    if (error instanceof PeopleError || (error.statusCode && error.statusCode < 500)) {
      return peopleErrorReply(error, reply, deps.logger);
    }
    deps.logger.error({ err: error }, 'admin request failed');
    return reply.code(500).send({ error: 'internal', message: 'internal error' });
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => {
    if (!deps.registry) return reply.code(404).send();
    return reply.header('content-type', deps.registry.contentType).send(await deps.registry.metrics());
  });

  app.get('/admin/platform-key', async () => ({ publicKey: deps.platformPublicKeyPem }));

  app.post('/admin/merchants', async (request, reply) => {
    const body = createMerchant.safeParse(request.body);
    if (!body.success) return badRequest(reply, body.error);
    const merchant = await deps.merchants.create(body.data);
    deps.logger.info({ mchNo: merchant.mchNo }, 'merchant created');
    return reply.code(201).send(merchant);
  });

  app.get<{ Params: { mchNo: string } }>('/admin/merchants/:mchNo', async (request) =>
    deps.merchants.get(request.params.mchNo),
  );

  app.patch<{ Params: { mchNo: string } }>('/admin/merchants/:mchNo', async (request, reply) => {
    const body = updateMerchant.safeParse(request.body);
    if (!body.success) return badRequest(reply, body.error);
    const merchant = await deps.merchants.update(request.params.mchNo, body.data);
    deps.logger.info({ mchNo: merchant.mchNo, changed: Object.keys(body.data) }, 'merchant updated');
    return merchant;
  });

  registerOperatorPeople(app, {
    db: deps.db,
    people: deps.people,
    audit: deps.audit,
    production: deps.production,
    cookieName: deps.cookieName,
    consoleBaseUrl: deps.consoleBaseUrl,
    publicBaseUrl: deps.publicBaseUrl,
    merchantExists: (mchNo) => deps.merchants.get(mchNo),
  });

  deps.extend?.(app);
  return app;
}

/** What needs no credential: probes, and the console's pages (they hold no data; their API calls do). */
function openPath(request: FastifyRequest): boolean {
  // The matched route's pattern, not the raw URL, decides: no spelling of a path reaches another route.
  const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
  if (path === '/healthz' || path === '/metrics') return true;
  const safe = request.method === 'GET' || request.method === 'HEAD';
  return safe && (path === '/console' || (path.startsWith('/console/') && !path.startsWith('/console/api/')));
}
