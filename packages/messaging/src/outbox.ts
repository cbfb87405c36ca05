import { randomUUID } from 'node:crypto';
import { type Generated, type Kysely, sql, type Transaction } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: the outbox works inside every service's own Database type
type AnyDatabase = any;

/** The LISTEN/NOTIFY channel the outbox trigger signals on every insert. */
export const OUTBOX_CHANNEL = 'outbox';

/** Row shape of the `outbox` table, for services that want it in their `Database` type. */
export interface OutboxTable {
  /** Insertion order; the relay publishes in this order (rows of one transaction share created_at). */
  seq: Generated<number>;
  /** The event id, also the JetStream msgID. */
  id: string;
  subject: string;
  payload: unknown;
  headers: Record<string, string> | null;
  created_at: Generated<Date>;
  published_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

/** Creates the `outbox` table, its index and NOTIFY trigger; call it from a service's migration. */
export async function createOutboxTable(db: Kysely<AnyDatabase>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity().notNull())
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('headers', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  // The relay only ever reads unpublished rows; published ones pile up until purged and must not slow it.
  await sql`create index outbox_unpublished_idx on outbox (seq) where published_at is null`.execute(db);
  await sql`
    create function outbox_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(OUTBOX_CHANNEL)}, '');
      return null;
    end
    $$`.execute(db);
  // Statement level: one wake-up per insert statement is enough, and NOTIFY is delivered only on commit.
  await sql`create trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()`.execute(
    db,
  );
}

export interface OutboxEvent {
  /** Event id; default a random UUID. Consumers see it as the `Nats-Msg-Id` header. */
  id?: string;
  subject: string;
  /** Anything JSON can represent; published as its JSON text. */
  payload: unknown;
  /** NATS headers to publish with the event, e.g. `traceparent`. */
  headers?: Record<string, string>;
}

/** Records an event in the caller's transaction, so it is published if and only if that transaction commits. */
export async function enqueueOutbox(trx: Transaction<AnyDatabase>, event: OutboxEvent): Promise<string> {
  const id = event.id ?? randomUUID();
  const payload = JSON.stringify(event.payload);
  if (payload === undefined) throw new TypeError(`outbox payload for ${event.subject} is not JSON`);
  await trx
    .insertInto('outbox')
    .values({
      id,
      subject: event.subject,
      // Sent as JSON text: pg would turn a JS array into a Postgres array, not a JSON one.
      payload,
      headers: event.headers ? JSON.stringify(event.headers) : null,
    })
    .execute();
  return id;
}

/**
 * Records a platform event (such as OrderStatusChanged or NoticeReceived) in the caller's transaction:
 * its `event_id` is the outbox id and JetStream msgID, and its `traceparent` also rides as a header.
 */
export async function enqueueEvent(
  trx: Transaction<AnyDatabase>,
  subject: string,
  event: { event_id: string; traceparent: string },
): Promise<void> {
  await enqueueOutbox(trx, {
    id: event.event_id,
    subject,
    payload: event,
    headers: event.traceparent ? { traceparent: event.traceparent } : undefined,
  });
}
