import type { Kysely } from 'kysely';
import type { StatementLookups } from '../adapters/channel-adapter.js';
import type { Database } from '../db/schema.js';
import { payoutsByClaveRastreo } from '../payout/channel-payout.repository.js';

/** The router's records of a route's payouts and deposits, by SPEI tracking key, for reading its statements. */
export function createStatementLookups(db: Kysely<Database>, routeId: string): StatementLookups {
  return {
    payoutsByClaveRastreo: (keys) => payoutsByClaveRastreo(db, routeId, keys),
    async depositsByClaveRastreo(keys) {
      if (keys.length === 0) return new Map();
      const rows = await db
        .selectFrom('channel_deposits')
        .select(['clave_rastreo', 'order_no', 'decision'])
        .where('route_id', '=', routeId)
        .where('clave_rastreo', 'in', [...keys])
        .execute();
      return new Map(rows.map((r) => [r.clave_rastreo, { orderNo: r.order_no, decision: r.decision }]));
    },
  };
}
