import type { FastifyInstance } from '@agentpay/http';
import { z } from 'zod';
import { badRequest } from '../shared/schema-problem.js';
import type { MerchantService } from './merchant.service.js';

// `GET /admin/merchants?search=&cursor=&limit=`: the console's merchant list (docs/console.md), paged on the
// server by merchant number so the thousandth page costs what the first does.

const listQuery = z.strictObject({
  search: z.string().trim().max(100).optional(),
  /** The `next` of the page before: opaque to callers (the last merchant number, base64url). */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const encodeCursor = (mchNo: string) => Buffer.from(mchNo, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

export function registerMerchantListAdmin(
  app: FastifyInstance,
  deps: { merchants: Pick<MerchantService, 'list'> },
): void {
  app.get('/admin/merchants', async (request, reply) => {
    const query = listQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, query.error);
    const { search, cursor, limit } = query.data;
    const rows = await deps.merchants.list({
      search: search || undefined,
      afterMchNo: cursor ? decodeCursor(cursor) : undefined,
      limit,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((m) => ({
        mchNo: m.mch_no,
        name: m.name,
        status: m.status,
        settleType: m.settle_type,
        createdAt: m.created_at.toISOString(),
      })),
      ...(rows.length > limit && last && { next: encodeCursor(last.mch_no) }),
    };
  });
}
