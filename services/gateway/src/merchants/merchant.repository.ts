import type { Kysely, Transaction } from 'kysely';
import type { Database, MerchantKeyRow, MerchantRow, NewMerchantRow } from '../db/schema.js';

export interface MerchantRecord {
  merchant: MerchantRow;
  appIds: string[];
  keys: MerchantKeyRow[];
}

/** Reads a merchant with its apps and every key (active and revoked), or undefined. */
export async function findMerchant(db: Kysely<Database>, mchNo: string): Promise<MerchantRecord | undefined> {
  const merchant = await db
    .selectFrom('merchants')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .executeTakeFirst();
  if (!merchant) return undefined;
  const [apps, keys] = await Promise.all([
    db.selectFrom('merchant_apps').select('app_id').where('mch_no', '=', mchNo).orderBy('app_id').execute(),
    db.selectFrom('merchant_keys').selectAll().where('mch_no', '=', mchNo).orderBy('created_at').execute(),
  ]);
  return { merchant, appIds: apps.map((a) => a.app_id), keys };
}

/** Inserts a merchant; throws the database's unique violation if the number is taken. */
export async function insertMerchant(trx: Transaction<Database>, row: NewMerchantRow): Promise<void> {
  await trx.insertInto('merchants').values(row).execute();
}

export async function updateMerchant(
  trx: Transaction<Database>,
  mchNo: string,
  changes: Partial<
    Pick<
      MerchantRow,
      | 'name'
      | 'status'
      | 'fee_percent_bps'
      | 'fee_fixed_centavos'
      | 'settle_type'
      | 'rate_limit_per_s'
      | 'limits'
      | 'registered_payees_only'
      | 'allowed_ips'
    >
  >,
): Promise<void> {
  await trx
    .updateTable('merchants')
    .set({ ...changes, updated_at: new Date() })
    .where('mch_no', '=', mchNo)
    .execute();
}

export async function replaceApps(
  trx: Transaction<Database>,
  mchNo: string,
  appIds: readonly string[],
): Promise<void> {
  await trx.deleteFrom('merchant_apps').where('mch_no', '=', mchNo).execute();
  if (appIds.length > 0) {
    await trx
      .insertInto('merchant_apps')
      .values(appIds.map((app_id) => ({ mch_no: mchNo, app_id })))
      .execute();
  }
}

export async function insertKey(
  trx: Transaction<Database>,
  key: { mchNo: string; pem: string; fingerprint: string },
): Promise<void> {
  await trx
    .insertInto('merchant_keys')
    .values({ mch_no: key.mchNo, public_key_pem: key.pem, fingerprint: key.fingerprint, status: 'active' })
    .execute();
}

/** Revokes the given keys of a merchant; answers how many were active and are now revoked. */
export async function revokeKeys(
  trx: Transaction<Database>,
  mchNo: string,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx
    .updateTable('merchant_keys')
    .set({ status: 'revoked', revoked_at: new Date() })
    .where('mch_no', '=', mchNo)
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Locks the merchant row so concurrent key changes cannot leave more than two active keys. */
export async function lockMerchant(
  trx: Transaction<Database>,
  mchNo: string,
): Promise<MerchantRow | undefined> {
  return trx.selectFrom('merchants').selectAll().where('mch_no', '=', mchNo).forUpdate().executeTakeFirst();
}

export async function countActiveKeys(trx: Transaction<Database>, mchNo: string): Promise<number> {
  const row = await trx
    .selectFrom('merchant_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('mch_no', '=', mchNo)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One page of merchants by number (keyset: those after `afterMchNo`), optionally those whose number starts
 * with `search` or whose name contains it (case-insensitive); one more than `limit` tells there is a next page.
 */
export async function listMerchants(
  db: Kysely<Database>,
  opts: { search?: string | undefined; afterMchNo?: string | undefined; limit: number },
): Promise<MerchantRow[]> {
  let query = db
    .selectFrom('merchants')
    .selectAll()
    .orderBy('mch_no')
    .limit(opts.limit + 1);
  if (opts.afterMchNo) query = query.where('mch_no', '>', opts.afterMchNo);
  if (opts.search) {
    const like = opts.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query.where((eb) => eb.or([eb('mch_no', 'ilike', `${like}%`), eb('name', 'ilike', `%${like}%`)]));
  }
  return query.execute();
}
