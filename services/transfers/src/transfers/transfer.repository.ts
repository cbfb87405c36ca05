import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { Database, Submission, TransferRow, TransfersTable } from '../db/schema.js';
import type { TransferStatus } from './transfer.state-machine.js';

// Built by the database so every replica shares one clock and one counter; 1 + 14 + 12 = 27 characters.
const nextTransferNo = sql<string>`'T' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('transfer_no_seq')::text, 12, '0')`;

export type NewTransfer = Omit<
  Insertable<TransfersTable>,
  | 'transfer_no'
  | 'status'
  | 'submission'
  | 'version'
  | 'route_id'
  | 'upstream_ref'
  | 'finish_time'
  | 'checked_at'
  | 'clave_rastreo'
  | 'cep_url'
  | 'sender_bank'
>;

/** The payout's tracking key after learning `key`: the first one known stays (schema.ts clave_rastreo). */
const keepFirstKey = (key: string) => sql<string>`coalesce(nullif(clave_rastreo, ''), ${key})`;

/** Where a payout went, as an answer, a notice or a query named it: the route and the channel's reference there. */
export interface RouteFacts {
  routeId: string;
  /** '' when the one naming the route did not say. */
  upstreamRef: string;
}

/**
 * The route and reference after learning `route`, whatever the order things were learnt in: the first
 * route recorded stays (the router sends a payout on one route only), and its reference is taken from
 * whoever names it first on that route. Never clears what is known, so no step that does not know the
 * route (a lost answer, the sweep of abandoned submissions) can erase it.
 */
function keepFirstRoute(route: RouteFacts) {
  const onRoute = sql<boolean>`coalesce(route_id, ${route.routeId}) = ${route.routeId}`;
  return {
    route_id: sql<string>`coalesce(route_id, ${route.routeId})`,
    upstream_ref: sql<string | null>`case when ${onRoute} and coalesce(upstream_ref, '') = ''
      then coalesce(nullif(${route.upstreamRef}, ''), upstream_ref) else upstream_ref end`,
  };
}

/**
 * Inserts the transfer as `submitting`, or nothing when the merchant already has one with this
 * biz_transfer_no: the unique key elects one submitter among concurrent identical requests.
 */
export function insertSubmitting(
  db: Kysely<Database>,
  values: NewTransfer,
): Promise<TransferRow | undefined> {
  return db
    .insertInto('transfers')
    .values({ ...values, transfer_no: nextTransferNo, status: 'submitting', submission: 'pending' })
    .onConflict((oc) => oc.constraint('transfers_mch_biz_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findTransferByBiz(
  db: Kysely<Database>,
  mchNo: string,
  bizTransferNo: string,
): Promise<TransferRow | undefined> {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('biz_transfer_no', '=', bizTransferNo)
    .where('kind', '=', 'transfer')
    .executeTakeFirst();
}

export function findTransferByNo(db: Kysely<Database>, transferNo: string): Promise<TransferRow | undefined> {
  return db.selectFrom('transfers').selectAll().where('transfer_no', '=', transferNo).executeTakeFirst();
}

/** A merchant's transfer by either identifier (both must match when both are given); never a submitting one. */
export function findMerchantTransfer(
  db: Kysely<Database>,
  ref: { mchNo: string; transferNo: string; bizTransferNo: string },
): Promise<TransferRow | undefined> {
  let query = db
    .selectFrom('transfers')
    .selectAll()
    .where('mch_no', '=', ref.mchNo)
    .where('kind', '=', 'transfer')
    .where('status', '!=', 'submitting');
  if (ref.transferNo) query = query.where('transfer_no', '=', ref.transferNo);
  if (ref.bizTransferNo) query = query.where('biz_transfer_no', '=', ref.bizTransferNo);
  return query.executeTakeFirst();
}

/**
 * Moves a transfer to `to` only if it is still at the status and version it was read at; undefined
 * when another writer got there first.
 */
export function updateTransferStatus(
  trx: Transaction<Database>,
  change: {
    transferNo: string;
    from: TransferStatus;
    version: number;
    to: TransferStatus;
    set: Pick<Updateable<TransfersTable>, 'finish_time' | 'submission'>;
    /** The payout's tracking key as upstream reported it with the change; '' when it did not. */
    claveRastreo: string;
    /** The route reported with the change, learnt as `keepFirstRoute` says; undefined when none was. */
    route?: RouteFacts | undefined;
    /** The payout's CEP facts reported with the change: each kept once known, as the tracking key is. */
    cep?: { senderBank?: string | undefined; cepUrl?: string | undefined } | undefined;
  },
): Promise<TransferRow | undefined> {
  return trx
    .updateTable('transfers')
    .set({
      ...change.set,
      ...(change.claveRastreo ? { clave_rastreo: keepFirstKey(change.claveRastreo) } : {}),
      ...(change.route?.routeId ? keepFirstRoute(change.route) : {}),
      ...(change.cep?.senderBank
        ? { sender_bank: sql<string>`coalesce(nullif(sender_bank, ''), ${change.cep.senderBank})` }
        : {}),
      ...(change.cep?.cepUrl
        ? { cep_url: sql<string>`coalesce(nullif(cep_url, ''), ${change.cep.cepUrl})` }
        : {}),
      status: change.to,
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('transfer_no', '=', change.transferNo)
    .where('status', 'in', [change.from])
    .where('version', '=', change.version)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records that the router is about to be called, only while the create still owns the submission
 * (`pending`): false when recovery has taken it to void its freeze, so the router must not be called.
 */
/**
 * Moves a transfer in progress from one submission phase to another (held -> sent on release, held ->
 * rejected on rejection, sent -> held or accepted after a release's answer); false when it was not there.
 */
export async function moveSubmission(
  db: Kysely<Database>,
  transferNo: string,
  from: Submission,
  to: Submission,
): Promise<boolean> {
  const result = await db
    .updateTable('transfers')
    .set({ submission: to, updated_at: sql<Date>`now()` })
    .where('transfer_no', '=', transferNo)
    .where('status', '=', 'progress')
    .where('submission', '=', from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markSent(db: Kysely<Database>, transferNo: string): Promise<boolean> {
  const result = await db
    .updateTable('transfers')
    .set({ submission: 'sent' })
    .where('transfer_no', '=', transferNo)
    .where('status', '=', 'submitting')
    .where('submission', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Claims a submission that nothing upstream has or will have, so its freeze can be voided and the row
 * removed; from `pending` (recovery, a ledger failure) or `sent` (the router said nothing was created).
 * True when the row is now `voiding`, by this call or an earlier one.
 */
export async function claimForVoiding(
  db: Kysely<Database>,
  transferNo: string,
  from: readonly ('pending' | 'sent' | 'voiding')[],
): Promise<boolean> {
  const result = await db
    .updateTable('transfers')
    .set({ submission: 'voiding' })
    .where('transfer_no', '=', transferNo)
    .where('status', '=', 'submitting')
    .where('submission', 'in', [...from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Removes a submission nothing was created for, so the merchant can retry the key: one the ledger
 * refused to freeze (`pending`), or one whose freeze was voided (`voiding`).
 */
export async function withdrawSubmission(
  db: Kysely<Database>,
  transferNo: string,
  phase: 'pending' | 'voiding',
): Promise<boolean> {
  const result = await db
    .deleteFrom('transfers')
    .where('transfer_no', '=', transferNo)
    .where('status', '=', 'submitting')
    .where('submission', '=', phase)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Records where the payout went, learnt without a status change (a notice repeating or contradicting the
 * status, a query of a payout in flight, an answer that came after the sweep), in any status, as
 * `keepFirstRoute` says. No version or event: the next status change's event carries it. Answers the
 * updated row, undefined when it taught the transfer nothing.
 */
export function attachRoute(
  db: Kysely<Database>,
  transferNo: string,
  route: RouteFacts,
): Promise<TransferRow | undefined> {
  return db
    .updateTable('transfers')
    .set({ ...keepFirstRoute(route), updated_at: sql<Date>`now()` })
    .where('transfer_no', '=', transferNo)
    .where((eb) =>
      eb.or([
        eb('route_id', 'is', null),
        eb.and([
          eb('route_id', '=', route.routeId),
          eb(eb.fn.coalesce('upstream_ref', sql.lit('')), '=', ''),
          eb(sql.val(route.upstreamRef), '<>', ''),
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records the payout's tracking key learnt without a status change (a repeated outcome, a query of a
 * payout still in flight), when the transfer has none yet. No version or event: a callback goes out only
 * with a status change, and carries the key from then on. Answers the updated row, undefined when the
 * transfer had a key already.
 */
export function recordClaveRastreo(
  db: Kysely<Database>,
  transferNo: string,
  key: string,
): Promise<TransferRow | undefined> {
  return db
    .updateTable('transfers')
    .set({ clave_rastreo: key })
    .where('transfer_no', '=', transferNo)
    .where('clave_rastreo', '=', '')
    .returningAll()
    .executeTakeFirst();
}

/** Transfers still `submitting` since before `before`: their submitter is gone (or was refused and left them to void). */
export function staleSubmissions(db: Kysely<Database>, before: Date, limit: number): Promise<TransferRow[]> {
  return (
    db
      .selectFrom('transfers')
      .selectAll()
      .where('status', '=', 'submitting')
      // A batch's items are withdrawn with their batch (batches/batch.service.ts sweepAccepting).
      .where('batch_no', 'is', null)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
      .execute()
  );
}

/**
 * Transfers in progress, unchanged and unchecked since before `before`; oldest first. Those without a
 * route (the submission's answer was lost) are included: the router looks for them on every route.
 */
export function progressDueForCheck(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<TransferRow[]> {
  return progressDueQuery(db, before, limit).execute();
}

/** The query of `progressDueForCheck`, for its plan test. */
export function progressDueQuery(db: Kysely<Database>, before: Date, limit: number) {
  return (
    db
      .selectFrom('transfers')
      .selectAll()
      .where('status', '=', 'progress')
      // A held transfer has nothing upstream to ask about until it is released.
      .where('submission', '<>', 'held')
      // A queued batch item is not upstream yet: the batch sender owns it until it is sent.
      .where('submission', '<>', 'queued')
      // Last changed and last checked before `before`, as one key: transfers_progress_check_idx reads only these.
      .where(sql<Date>`greatest(updated_at, checked_at)`, '<', before)
      .orderBy(sql`greatest(updated_at, checked_at)`)
      .limit(limit)
  );
}

export async function markChecked(db: Kysely<Database>, transferNo: string): Promise<void> {
  await db
    .updateTable('transfers')
    .set({ checked_at: sql<Date>`now()` })
    .where('transfer_no', '=', transferNo)
    .execute();
}
