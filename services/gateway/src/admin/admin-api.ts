import { SETTLE_TYPES } from '@agentpay/api';
import {
  bearerTokenMatches,
  createHttpServer,
  type FastifyInstance,
  type FastifyReply,
} from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import type { Registry } from '@agentpay/telemetry';
import { z } from 'zod';
import { MerchantAdminError, type MerchantService } from '../merchants/merchant.service.js';

export interface AdminApiDeps {
  logger: Logger;
  adminToken: string;
  platformPublicKeyPem: string;
  merchants: MerchantService;
  /** Served at GET /metrics (Prometheus text), unauthenticated like /healthz: the admin port is internal. */
  registry?: Registry;
  /** Further admin routes (routes, callbacks), registered behind the same token. */
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

const updateMerchant = z
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
  const issue = error.issues[0];
  const where = issue?.path.map(String).join('.') || 'body';
  return reply.code(400).send({ error: 'bad_request', message: `${where}: ${issue?.message ?? 'invalid'}` });
}

/** The operators' API (services/gateway/README.md): JSON over HTTP behind a bearer token. */
export function buildAdminApi(deps: AdminApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger, { bodyLimit: 1_048_576 });

  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz' || request.url === '/metrics') return;
    if (!bearerTokenMatches(request.headers.authorization, deps.adminToken)) {
      return reply.code(401).send({ error: 'unauthorized', message: 'missing or wrong bearer token' });
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof MerchantAdminError) {
      const status = { not_found: 404, conflict: 409, invalid: 400 }[error.kind];
      return reply.code(status).send({ error: error.kind, message: error.message });
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: 'bad_request', message: error.message });
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

  deps.extend?.(app);
  return app;
}
