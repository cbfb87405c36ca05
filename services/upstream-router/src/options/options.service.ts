import type { OptionList } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { eligibleRoutes } from '../routes/route.repository.js';
import { BANK_PAYEE_TYPES, PAY_METHODS, PAYEE_TYPES, PUBLIC_BANK_CODES } from './catalog.js';

function union(lists: readonly string[][]): Set<string> {
  return new Set(lists.flat());
}

/** Public payment methods, payee types and payee codes the merchant's enabled routes offer. */
export function createOptionsService(db: Kysely<Database>) {
  return {
    async payMethods(mchNo: string): Promise<OptionList> {
      const served = union((await eligibleRoutes(db, { mchNo })).map((r) => r.methods));
      return {
        items: Object.entries(PAY_METHODS)
          .filter(([code]) => served.has(code))
          .map(([code, name]) => ({ code, name })),
      };
    },

    async payeeTypes(mchNo: string): Promise<OptionList> {
      const served = union((await eligibleRoutes(db, { mchNo })).map((r) => r.payee_types));
      return {
        items: Object.entries(PAYEE_TYPES)
          .filter(([code]) => served.has(code))
          .map(([code, name]) => ({ code, name })),
      };
    },

    async payeeCodes(mchNo: string, payeeType: string): Promise<OptionList> {
      const routes =
        PAYEE_TYPES[payeeType] === undefined ? [] : await eligibleRoutes(db, { mchNo, payeeType });
      if (routes.length === 0) throw new AppError('PAYEE_TYPE_NOT_AVAILABLE', payeeType);
      if (!BANK_PAYEE_TYPES.has(payeeType)) return { items: [] };
      const mapped = new Set(routes.flatMap((r) => Object.keys(r.code_map)));
      const items = [...PUBLIC_BANK_CODES]
        .filter(([code]) => mapped.has(code))
        .map(([code, name]) => ({ code, name }));
      return { items };
    },
  };
}

export type OptionsService = ReturnType<typeof createOptionsService>;
