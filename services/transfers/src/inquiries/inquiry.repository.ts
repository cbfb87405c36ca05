import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, InquiriesTable, InquiryRow } from '../db/schema.js';

const nextInquryNo = sql<string>`'I' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('inqury_no_seq')::text, 12, '0')`;

export type NewInquiry = Omit<Insertable<InquiriesTable>, 'inqury_no'>;

/** Stores an inquiry's result, or nothing when the merchant already has one with this biz_inqury_no. */
export function insertInquiry(db: Kysely<Database>, values: NewInquiry): Promise<InquiryRow | undefined> {
  return db
    .insertInto('inquiries')
    .values({ ...values, inqury_no: nextInquryNo })
    .onConflict((oc) => oc.constraint('inquiries_mch_biz_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findInquiry(
  db: Kysely<Database>,
  mchNo: string,
  bizInquryNo: string,
): Promise<InquiryRow | undefined> {
  return db
    .selectFrom('inquiries')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('biz_inqury_no', '=', bizInquryNo)
    .executeTakeFirst();
}
