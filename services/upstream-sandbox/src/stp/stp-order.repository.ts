import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { Database, StpOrderRow, StpOrdersTable, StpTipoOrden } from '../db/schema.js';

/** Stores an order; undefined when the company already used its claveRastreo that day (registraOrden's −1). */
export async function insertOrder(
  db: Kysely<Database> | Transaction<Database>,
  order: Insertable<StpOrdersTable>,
): Promise<StpOrderRow | undefined> {
  return db
    .insertInto('stp_orders')
    .values(order)
    .onConflict((oc) => oc.columns(['empresa', 'tipo_orden', 'fecha_operacion', 'clave_rastreo']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findOrderById(db: Kysely<Database>, id: number): Promise<StpOrderRow | undefined> {
  return db.selectFrom('stp_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One company's order by its key: on `fechaOperacion`, or the latest of any day when none is given. */
export async function findOrder(
  db: Kysely<Database>,
  by: { empresa: string; tipoOrden: StpTipoOrden; claveRastreo: string; fechaOperacion?: string },
): Promise<StpOrderRow | undefined> {
  return db
    .selectFrom('stp_orders')
    .selectAll()
    .where('empresa', '=', by.empresa)
    .where('tipo_orden', '=', by.tipoOrden)
    .where('clave_rastreo', '=', by.claveRastreo)
    .$if(by.fechaOperacion !== undefined, (q) => q.where('fecha_operacion', '=', by.fechaOperacion ?? ''))
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Orders of any company with this claveRastreo, newest first (the tester's lookup). */
export async function ordersByClave(db: Kysely<Database>, claveRastreo: string): Promise<StpOrderRow[]> {
  return db
    .selectFrom('stp_orders')
    .selectAll()
    .where('clave_rastreo', '=', claveRastreo)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

/** One page of a company's day in one direction, in id order, and how many the day has. */
export async function dayPage(
  db: Kysely<Database>,
  day: { empresa: string; tipoOrden: StpTipoOrden; fechaOperacion: string },
  page: { offset: number; limit: number },
): Promise<{ orders: StpOrderRow[]; total: number }> {
  const ofDay = db
    .selectFrom('stp_orders')
    .where('empresa', '=', day.empresa)
    .where('tipo_orden', '=', day.tipoOrden)
    .where('fecha_operacion', '=', day.fechaOperacion);
  const [orders, count] = await Promise.all([
    ofDay.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
    ofDay.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { orders, total: count.total };
}

/** Sent orders whose settle time has come, locked; replicas skip each other's rows. */
export async function lockDueSettlements(trx: Transaction<Database>, limit: number): Promise<StpOrderRow[]> {
  return trx
    .selectFrom('stp_orders')
    .selectAll()
    .where('settle_at', '<=', sql<Date>`now()`)
    .orderBy('settle_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Liquidated RETURN orders whose return time has come, locked. */
export async function lockDueReturns(trx: Transaction<Database>, limit: number): Promise<StpOrderRow[]> {
  return trx
    .selectFrom('stp_orders')
    .selectAll()
    .where('return_at', '<=', sql<Date>`now()`)
    .orderBy('return_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Moves an order out of estado `from`; undefined when another writer moved it first. */
export async function transitionOrder(
  trx: Transaction<Database>,
  id: number,
  from: string,
  change: Updateable<StpOrdersTable>,
): Promise<StpOrderRow | undefined> {
  return trx
    .updateTable('stp_orders')
    .set(change)
    .where('id', '=', id)
    .where('estado', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** Records the company's first decisive answer to an abono; undefined when one was recorded before. */
export async function answerAbono(
  trx: Transaction<Database>,
  id: number,
  change: Updateable<StpOrdersTable>,
): Promise<StpOrderRow | undefined> {
  return trx
    .updateTable('stp_orders')
    .set(change)
    .where('id', '=', id)
    .where('answer', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}
