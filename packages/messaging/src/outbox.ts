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

/**
 * Records an event in the caller's transaction, so it is published if and only if that transaction commits.
 * Not exported by the package: services write platform events through `enqueueEvent` / `enqueueEvents`,
 * which carry the traceparent.
 */
export async function enqueueOutbox(trx: Transaction<AnyDatabase>, event: OutboxEvent): Promise<string> {
  const [id] = await writeOutbox(trx, [event]);
  return id as string;
}

/** Writes outbox rows in the caller's transaction, in order, in one statement. */
async function writeOutbox(trx: Transaction<AnyDatabase>, events: readonly OutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    const payload = JSON.stringify(event.payload);
    if (payload === undefined) throw new TypeError(`outbox payload for ${event.subject} is not JSON`);
    return {
      id: event.id ?? randomUUID(),
      subject: event.subject,
      // Sent as JSON text: pg would turn a JS array into a Postgres array, not a JSON one.
      payload,
      headers: event.headers ? JSON.stringify(event.headers) : null,
    };
  });
  await trx.insertInto('outbox').values(rows).execute();
  return rows.map((r) => r.id);
}

/** A platform event (OrderStatusChanged, NoticeReceived, OrderSettled, …) as every producer writes it. */
export interface PlatformEvent {
  event_id: string;
  /** W3C traceparent of the cause (a new root trace for a job); also sent as the `traceparent` header. */
  traceparent: string;
}

/**
 * Records platform events in the caller's transaction, in order and in one statement, so they are
 * published if and only if that transaction commits: each `event_id` is its outbox id and JetStream
 * msgID, and each `traceparent` also rides as a header. The one outbox writer of every service.
 */
export async function enqueueEvents(
  trx: Transaction<AnyDatabase>,
  events: readonly { subject: string; event: PlatformEvent }[],
): Promise<void> {
  await writeOutbox(
    trx,
    events.map(({ subject, event }) => ({
      id: event.event_id,
      subject,
      payload: event,
      headers: event.traceparent ? { traceparent: event.traceparent } : undefined,
    })),
  );
}

/** One platform event in the caller's transaction (see `enqueueEvents`). */
export async function enqueueEvent(
  trx: Transaction<AnyDatabase>,
  subject: string,
  event: PlatformEvent,
): Promise<void> {
  await enqueueEvents(trx, [{ subject, event }]);
}
