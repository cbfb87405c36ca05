import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos, headers as natsHeaders } from '@nats-io/transport-node';

/** The platform's domain-event stream. */
export const EVENTS_STREAM = 'AGENTPAY_EVENTS';
/** Subjects the events stream captures: `agentpay.events.<aggregate>.<event>`. */
export const EVENTS_SUBJECTS = ['agentpay.events.>'];

/** The kinds of order whose status changes are announced: `<prefix>.<kind>.status_changed`. */
export type OrderKind = 'pay' | 'transfer';
/** The kinds of upstream notice the router records: `<prefix>.notice.<kind>`. */
export type NoticeKind = 'payment' | 'payout';

/** Subject of an order's OrderStatusChanged events (producers: payments, transfers; consumer: notifier). */
export function statusChangedSubject(prefix: string, kind: OrderKind): string {
  return `${prefix}.${kind}.status_changed`;
}

/** Subject of NoticeReceived events (producer: upstream-router; consumers: payments, transfers). */
export function noticeSubject(prefix: string, kind: NoticeKind): string {
  return `${prefix}.notice.${kind}`;
}

/** Subject of the ledger's OrderSettled events (producer: ledger; consumer: payments). */
export function orderSettledSubject(prefix: string): string {
  return `${prefix}.ledger.order_settled`;
}

/** Consumer filter of every order kind's status changes (consumers: notifier, ledger), none of the rest. */
export function statusChangedFilter(prefix: string): string {
  return statusChangedSubject(prefix, '*' as OrderKind);
}

/** Whether `subject` is an OrderStatusChanged subject (`statusChangedSubject`) of any order kind. */
export function isStatusChangedSubject(subject: string): boolean {
  return subject.endsWith('.status_changed');
}

/** How long JetStream remembers a `msgID`; a relay that re-publishes after a crash falls well inside it. */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** Drop messages older than this; default 0, keep until the limits say otherwise. */
  maxAgeMs?: number;
  /**
   * Copies of every message, on distinct nats-servers of a cluster (1, 3 or 5). Absent: 1 for a new
   * stream, and an existing stream keeps its own. A changed count is applied to the existing stream.
   */
  replicas?: number;
  /** Where the replicas go: a cluster by name and/or servers by tag; absent, the server picks. */
  placement?: { cluster?: string; tags?: string[] };
}

/** The settings `ensureStream` owns; anything else on an existing stream is left as it is. */
type WantedStream = Pick<StreamConfig, 'subjects' | 'max_age' | 'duplicate_window'> &
  Partial<Pick<StreamConfig, 'num_replicas' | 'placement'>>;

/**
 * Creates the stream, or updates its subjects, ages, replicas and placement to match `spec`; safe to
 * call at every start of every replica. Consumers created with no replica count of their own follow
 * the stream's, so an R3 stream also keeps its consumers' state on three servers.
 */
export async function ensureStream(nc: NatsConnection, spec: StreamSpec): Promise<StreamInfo> {
  const jsm = await jetstreamManager(nc);
  const maxAgeMs = spec.maxAgeMs ?? 0;
  const wanted: WantedStream = {
    subjects: spec.subjects,
    max_age: nanos(maxAgeMs),
    // JetStream rejects a duplicate window longer than the max age.
    duplicate_window: nanos(maxAgeMs > 0 ? Math.min(maxAgeMs, DUPLICATE_WINDOW_MS) : DUPLICATE_WINDOW_MS),
    ...(spec.replicas !== undefined && { num_replicas: spec.replicas }),
    ...(spec.placement !== undefined && { placement: placementOf(spec.placement) }),
  };

  const reconcile = async (info: StreamInfo) =>
    matches(info.config, wanted) ? info : jsm.streams.update(spec.name, wanted);

  try {
    return await reconcile(await jsm.streams.info(spec.name));
  } catch (err) {
    if (!isStreamNotFound(err)) throw err;
  }
  try {
    return await jsm.streams.add({
      name: spec.name,
      ...wanted,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
    });
  } catch (err) {
    // Another replica may have created it first (with an older config): reconcile with theirs.
    const info = await jsm.streams.info(spec.name).catch(() => {
      throw err;
    });
    return reconcile(info);
  }
}

/**
 * Checks that the stream exists without declaring it (a service with NATS_PROVISION=false, whose
 * credentials may read the stream but not create or change it); throws naming the provision step if not.
 */
export async function bindStream(nc: NatsConnection, name: string): Promise<StreamInfo> {
  const jsm = await jetstreamManager(nc);
  try {
    return await jsm.streams.info(name);
  } catch (err) {
    if (!isStreamNotFound(err)) throw err;
    throw new Error(
      `the events stream ${name} does not exist and NATS_PROVISION=false forbids declaring it: ` +
        'run the provision step first (npm run nats:provision, or the nats-provision Job)',
    );
  }
}

function placementOf(placement: { cluster?: string; tags?: string[] }): StreamConfig['placement'] {
  return {
    cluster: placement.cluster ?? '',
    ...(placement.tags && placement.tags.length > 0 && { tags: placement.tags }),
  } as StreamConfig['placement'];
}

/** Deletes a stream if it exists (tests remove their own streams this way). */
export async function deleteStream(nc: NatsConnection, name: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(name).catch((err: unknown) => {
    if (!isStreamNotFound(err)) throw err;
  });
}

/**
 * Publishes an event straight to JetStream (tests, and tools replaying an event), as a relay would:
 * msgID = `event_id`, `traceparent` as a header. Answers the stream sequence it got.
 */
export async function publishEvent(
  nc: NatsConnection,
  subject: string,
  event: { event_id: string; traceparent?: string },
): Promise<number> {
  const h = natsHeaders();
  if (event.traceparent) h.set('traceparent', event.traceparent);
  const ack = await jetstream(nc).publish(subject, JSON.stringify(event), {
    msgID: event.event_id,
    headers: h,
  });
  return ack.seq;
}

/** The stream sequence up to which a durable consumer has acked (or terminated) every message. */
export async function ackedThrough(nc: NatsConnection, stream: string, durable: string): Promise<number> {
  const jsm = await jetstreamManager(nc);
  return (await jsm.consumers.info(stream, durable)).ack_floor.stream_seq;
}

function matches(current: StreamConfig, wanted: WantedStream): boolean {
  const have = [...(current.subjects ?? [])].sort();
  const want = [...wanted.subjects].sort();
  return (
    have.length === want.length &&
    have.every((subject, i) => subject === want[i]) &&
    current.max_age === wanted.max_age &&
    current.duplicate_window === wanted.duplicate_window &&
    (wanted.num_replicas === undefined || current.num_replicas === wanted.num_replicas) &&
    (wanted.placement === undefined || samePlacement(current.placement, wanted.placement))
  );
}

function samePlacement(current: StreamConfig['placement'] | undefined, wanted: StreamConfig['placement']) {
  const tags = (p: StreamConfig['placement'] | undefined) => [...(p?.tags ?? [])].sort().join(',');
  return (current?.cluster ?? '') === (wanted?.cluster ?? '') && tags(current) === tags(wanted);
}

/**
 * Whether a JetStream call failed because the cluster could not answer for a moment, not because the
 * request was wrong: a request that timed out or found no responder, or a 503 ("JetStream temporarily
 * unavailable", which a cluster answers while it elects a stream or meta leader after a node is lost).
 */
export function isTransientJetStreamError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (['TimeoutError', 'NoRespondersError', 'RequestError'].includes(err.name)) return true;
  return err instanceof JetStreamApiError && err.status === 503;
}

/**
 * Runs a JetStream management call (a stream or consumer declaration at start) until it succeeds, retrying
 * transient failures with backoff for at most `patienceMs`; a service that starts while a NATS node is being
 * replaced waits for the cluster instead of exiting. Other errors are thrown at once.
 */
export async function withJetStreamPatience<T>(
  what: string,
  action: () => Promise<T>,
  opts: { patienceMs?: number; onRetry?: (err: Error, attempt: number) => void } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.patienceMs ?? 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (err) {
      if (!isTransientJetStreamError(err) || Date.now() >= deadline) {
        if (err instanceof Error && attempt > 1)
          err.message = `${what}: ${err.message} (after ${attempt} tries)`;
        throw err;
      }
      opts.onRetry?.(err as Error, attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** (attempt - 1), 5_000)));
    }
  }
}

function isStreamNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;
}
