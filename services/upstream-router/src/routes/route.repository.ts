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
export async function seedRouteOnce(db: Kysely<Database>, route: NewRoute): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('router_meta')
      .values({ key: `seeded:${route.id}`, value: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marker) return false;
    await insertRoute(trx, route);
    return true;
  });
}

/** Adds a route; an existing id is left as it is. */
export async function insertRoute(
  db: Kysely<Database> | Transaction<Database>,
  route: NewRoute,
): Promise<void> {
  await db
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
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Lets a `list`-scoped route serve one more merchant. */
export async function bindMerchant(db: Kysely<Database>, routeId: string, mchNo: string): Promise<void> {
  await db
    .insertInto('route_merchants')
    .values({ route_id: routeId, mch_no: mchNo })
    .onConflict((oc) => oc.columns(['route_id', 'mch_no']).doNothing())
    .execute();
}
