import { SETTLE_TYPES } from '@agentpay/api';
import type { FastifyInstance } from '@agentpay/http';
import type { Logger } from '@agentpay/logger';
import { z } from 'zod';
import { badRequest } from '../shared/schema-problem.js';
import { isCidr, type MerchantService } from './merchant.service.js';

// The operators' merchant routes on the admin port (CONTRACT.md section 11): create, read and change a
// merchant, and the platform's public key. Who may call each is merchants.permissions.ts.

export interface MerchantsAdminDeps {
  logger: Logger;
  merchants: MerchantService;
  platformPublicKeyPem: string;
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
    /** On at once; off through four eyes (CONTRACT section 19). */
    registeredPayeesOnly: z.boolean().optional(),
    allowedIps: z
      .array(z.string().trim().refine(isCidr, 'an address or a CIDR such as 203.0.113.0/24'))
      .max(50)
      .optional(),
  })
  .strict();

export function registerMerchantsAdmin(app: FastifyInstance, deps: MerchantsAdminDeps): void {
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
}
