import { type Kysely, sql } from 'kysely';
import type { Database, StpCompanyRow } from '../db/schema.js';

export interface StpCompany {
  empresa: string;
  publicKeyPem: string;
  clabePrefix: string;
  webhookBase: string;
}

/**
 * Creates or replaces a company; undefined when another company already has its CLABE prefix (the
 * prefix's unique index decides, so two writers racing for one prefix cannot both win).
 */
export async function upsertCompany(db: Kysely<Database>, c: StpCompany): Promise<StpCompanyRow | undefined> {
  try {
    return await db
      .insertInto('stp_companies')
      .values({
        empresa: c.empresa,
        public_key_pem: c.publicKeyPem,
        clabe_prefix: c.clabePrefix,
        webhook_base: c.webhookBase,
        updated_at: new Date(),
      })
      .onConflict((oc) =>
        oc.column('empresa').doUpdateSet({
          public_key_pem: c.publicKeyPem,
          clabe_prefix: c.clabePrefix,
          webhook_base: c.webhookBase,
          updated_at: sql<Date>`now()`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') return undefined;
    throw err;
  }
}

export async function findCompany(db: Kysely<Database>, empresa: string): Promise<StpCompanyRow | undefined> {
  return db.selectFrom('stp_companies').selectAll().where('empresa', '=', empresa).executeTakeFirst();
}

/** The company whose 10-digit prefix starts `clabe`, if any. */
export async function companyOwningClabe(
  db: Kysely<Database>,
  clabe: string,
): Promise<StpCompanyRow | undefined> {
  if (!/^\d{10}/.test(clabe)) return undefined;
  return db
    .selectFrom('stp_companies')
    .selectAll()
    .where('clabe_prefix', '=', clabe.slice(0, 10))
    .executeTakeFirst();
}

export async function listCompanies(db: Kysely<Database>): Promise<StpCompanyRow[]> {
  return db.selectFrom('stp_companies').selectAll().orderBy('empresa').execute();
}
