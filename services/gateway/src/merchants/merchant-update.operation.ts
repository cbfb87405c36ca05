import type { z } from 'zod';
import type { AdminOperation, HttpResult, OperationRegistry } from '../approvals/index.js';
import { schemaRefusal } from '../shared/schema-problem.js';
import { MerchantAdminError, type MerchantService } from './merchant.service.js';
import { updateMerchant } from './merchants-admin.routes.js';

// A merchant change that adds a public key decides who can sign as the merchant, so it needs four eyes
// (services/gateway/README.md "Four eyes"); any other merchant change is made at once by its route in
// merchants-admin.routes.ts. The whole request waits, not only its key: it is executed exactly as it was made.

interface MerchantChangePayload {
  mchNo: string;
  input: z.output<typeof updateMerchant>;
}

const refusalOf = (err: unknown): HttpResult => {
  if (!(err instanceof MerchantAdminError)) throw err;
  const status = { not_found: 404, conflict: 409, invalid: 400 }[err.kind];
  return { status, body: { error: err.kind, message: err.message } };
};

/** Adds the operation of `PATCH /admin/merchants/:mchNo` to `operations` (used only when four eyes apply). */
export function addMerchantUpdateOperation(operations: OperationRegistry, merchants: MerchantService): void {
  const operation: AdminOperation<MerchantChangePayload> = {
    action: 'merchant.update',
    method: 'PATCH',
    url: '/admin/merchants/:mchNo',
    async prepare(request) {
      const mchNo = (request.params as { mchNo: string }).mchNo;
      const body = updateMerchant.safeParse(request.body);
      if (!body.success) return schemaRefusal(body.error);
      try {
        // Everything the change would check (the merchant, the key, revoked ids, the active keys' count).
        await merchants.update(mchNo, body.data, { validateOnly: true });
      } catch (err) {
        return { ok: false, refusal: refusalOf(err) };
      }
      const others = Object.keys(body.data).filter((k) => k !== 'addPublicKey');
      return {
        ok: true,
        payload: { mchNo, input: body.data },
        summary: `${body.data.addPublicKey !== undefined ? 'add a public key to' : 'change'} merchant ${mchNo}${others.length ? `: ${others.join(', ')}` : ''}`,
        target: `merchant:${mchNo}`,
      };
    },
    async perform(payload, context) {
      // The change and the approval's mark commit together: executed once, however often it is tried.
      const done: HttpResult = {
        status: 200,
        body: { mchNo: payload.mchNo, changed: Object.keys(payload.input) },
      };
      try {
        const merchant = await merchants.update(payload.mchNo, payload.input, {
          also: context.markExecuted && ((trx) => context.markExecuted?.(trx, done) ?? Promise.resolve()),
        });
        return { status: 200, body: merchant };
      } catch (err) {
        return refusalOf(err);
      }
    },
  };
  operations.add(operation);
}
