import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, RouteRow } from '../db/schema.js';

/** Enabled routes serving this merchant, optionally only those serving a method or a payee type; best first. */
export async function eligibleRoutes(
  db: Kysely<Database>,
  filter: { mchNo: string; method?: string; payeeType?: string },
): Promise<RouteRow[]> {
  let query = db
    .selectFrom('routes')
    .selectAll()
    .where('enabled', '=', true)
    .where((eb) =>
      eb.or([
        eb('merchant_scope', '=', 'all'),
        eb.exists(
          eb
            .selectFrom('route_merchants')
            .select(sql`1`.as('one'))
            .whereRef('route_merchants.route_id', '=', 'routes.id')
            .where('route_merchants.mch_no', '=', filter.mchNo),
        ),
      ]),
    );
  if (filter.method !== undefined) query = query.where(sql<boolean>`${filter.method} = any(methods)`);
  if (filter.payeeType !== undefined)
    query = query.where(sql<boolean>`${filter.payeeType} = any(payee_types)`);
  return query.orderBy('priority').orderBy('id').execute();
}

export async function findRoute(db: Kysely<Database>, id: string): Promise<RouteRow | undefined> {
  return db.selectFrom('routes').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewRoute {
  id: string;
  name: string;
  adapter: string;
  config: Record<string, unknown>;
  credentialsRef: string;
  enabled: boolean;
  methods: string[];
  payeeTypes: string[];
  priority: number;
  weight: number;
  merchantScope: 'all' | 'list';
  codeMap: Record<string, string>;
}

/**
 * Creates `route` once in the life of the database: a later start never recreates it, so an operator
 * who disables or deletes the seeded route keeps it that way.
 */
export async function seedRouteOnce(trx: Transaction<Database>, route: NewRoute): Promise<boolean> {
  const marker = await trx
    .insertInto('router_meta')
    .values({ key: `seeded:${route.id}`, value: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!marker) return false;
  await insertRoute(trx, route);
  return true;
}

/** Another route (than `exceptId`) whose config names this CLABE prefix, or undefined. */
export async function routeWithClabePrefix(
  db: Kysely<Database> | Transaction<Database>,
  prefix: string,
  exceptId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('routes')
    .select('id')
    .where(sql<boolean>`config->>'clabePrefix' = ${prefix}`)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return row?.id;
}

/** Who makes a change: the operator's label, and the approval (four eyes) it carries out, '' for none. */
export interface ChangedBy {
  by: string;
  approvalId: string;
}

/** The columns a change by `changedBy` sets: who, and the approval only when it carried one. */
const updatedBy = (changedBy: ChangedBy) => ({
  updated_by: changedBy.by,
  ...(changedBy.approvalId && { approval_id: changedBy.approvalId }),
});

/** Adds a route; an existing id is left as it is (false). */
export async function insertRoute(
  db: Kysely<Database> | Transaction<Database>,
  route: NewRoute,
  changedBy?: ChangedBy,
): Promise<boolean> {
  const inserted = await db
    .insertInto('routes')
    .values({
      id: route.id,
      name: route.name,
      adapter: route.adapter,
      config: JSON.stringify(route.config),
      credentials_ref: route.credentialsRef,
      enabled: route.enabled,
      methods: route.methods,
      payee_types: route.payeeTypes,
      priority: route.priority,
      weight: route.weight,
      merchant_scope: route.merchantScope,
      code_map: JSON.stringify(route.codeMap),
      ...(changedBy && {
        created_by: changedBy.by,
        updated_by: changedBy.by,
        approval_id: changedBy.approvalId,
      }),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Lets a `list`-scoped route serve one more merchant. */
export async function bindMerchant(
  db: Kysely<Database> | Transaction<Database>,
  routeId: string,
  mchNo: string,
): Promise<void> {
  await db
    .insertInto('route_merchants')
    .values({ route_id: routeId, mch_no: mchNo })
    .onConflict((oc) => oc.columns(['route_id', 'mch_no']).doNothing())
    .execute();
}

/** Every route, by priority then id. */
export async function listRoutes(db: Kysely<Database>): Promise<RouteRow[]> {
  return db.selectFrom('routes').selectAll().orderBy('priority').orderBy('id').execute();
}

/** Every route that serves some payee type, enabled or not (a payout stays where it was sent); best first. */
export async function payoutRoutes(db: Kysely<Database>): Promise<RouteRow[]> {
  return db
    .selectFrom('routes')
    .selectAll()
    .where(sql<boolean>`cardinality(payee_types) > 0`)
    .orderBy('priority')
    .orderBy('id')
    .execute();
}

/** The route, locked until the transaction ends, so read-modify-write changes do not interleave. */
export async function lockRoute(trx: Transaction<Database>, id: string): Promise<RouteRow | undefined> {
  return trx.selectFrom('routes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Overwrites a route's settings (everything but its id and creation time). */
export async function saveRoute(
  trx: Transaction<Database>,
  route: NewRoute,
  changedBy?: ChangedBy,
): Promise<void> {
  await trx
    .updateTable('routes')
    .set({
      name: route.name,
      adapter: route.adapter,
      config: JSON.stringify(route.config),
      credentials_ref: route.credentialsRef,
      enabled: route.enabled,
      methods: route.methods,
      payee_types: route.payeeTypes,
      priority: route.priority,
      weight: route.weight,
      merchant_scope: route.merchantScope,
      code_map: JSON.stringify(route.codeMap),
      updated_at: new Date(),
      ...(changedBy && updatedBy(changedBy)),
    })
    .where('id', '=', route.id)
    .execute();
}

/** Merchants bound to each of the routes. */
export async function boundMerchants(
  db: Kysely<Database> | Transaction<Database>,
  routeIds: readonly string[],
): Promise<Map<string, string[]>> {
  const bound = new Map<string, string[]>(routeIds.map((id) => [id, []]));
  if (routeIds.length === 0) return bound;
  const rows = await db
    .selectFrom('route_merchants')
    .select(['route_id', 'mch_no'])
    .where('route_id', 'in', routeIds)
    .orderBy('mch_no')
    .execute();
  for (const row of rows) bound.get(row.route_id)?.push(row.mch_no);
  return bound;
}

/** Replaces the merchants a route serves. */
export async function replaceMerchants(
  trx: Transaction<Database>,
  routeId: string,
  mchNos: readonly string[],
): Promise<void> {
  await trx.deleteFrom('route_merchants').where('route_id', '=', routeId).execute();
  if (mchNos.length > 0)
    await trx
      .insertInto('route_merchants')
      .values(mchNos.map((mchNo) => ({ route_id: routeId, mch_no: mchNo })))
      .onConflict((oc) => oc.columns(['route_id', 'mch_no']).doNothing())
      .execute();
}

export async function unbindMerchant(
  db: Kysely<Database> | Transaction<Database>,
  routeId: string,
  mchNo: string,
): Promise<void> {
  await db
    .deleteFrom('route_merchants')
    .where('route_id', '=', routeId)
    .where('mch_no', '=', mchNo)
    .execute();
}

/** Marks the route changed (a binding moved), so its updated_at tells operators when. */
export async function touchRoute(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
  changedBy?: ChangedBy,
): Promise<void> {
  await db
    .updateTable('routes')
    .set({
      updated_at: new Date(),
      ...(changedBy && updatedBy(changedBy)),
    })
    .where('id', '=', id)
    .execute();
}
