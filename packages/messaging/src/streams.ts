import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';

/** The platform's domain-event stream. */
export const EVENTS_STREAM = 'AGENTPAY_EVENTS';
/** Subjects the events stream captures: `agentpay.events.<aggregate>.<event>`. */
export const EVENTS_SUBJECTS = ['agentpay.events.>'];

/** How long JetStream remembers a `msgID`; a relay that re-publishes after a crash falls well inside it. */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** Drop messages older than this; default 0, keep until the limits say otherwise. */
  maxAgeMs?: number;
}

/** Creates the stream, or updates its subjects and ages to match `spec`; safe to call at every start. */
export async function ensureStream(nc: NatsConnection, spec: StreamSpec): Promise<StreamInfo> {
  const jsm = await jetstreamManager(nc);
  const maxAgeMs = spec.maxAgeMs ?? 0;
  const wanted = {
    subjects: spec.subjects,
    max_age: nanos(maxAgeMs),
    // JetStream rejects a duplicate window longer than the max age.
    duplicate_window: nanos(maxAgeMs > 0 ? Math.min(maxAgeMs, DUPLICATE_WINDOW_MS) : DUPLICATE_WINDOW_MS),
  } satisfies Partial<StreamConfig>;

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

function matches(
  current: StreamConfig,
  wanted: { subjects: string[]; max_age: number; duplicate_window: number },
): boolean {
  const have = [...(current.subjects ?? [])].sort();
  const want = [...wanted.subjects].sort();
  return (
    have.length === want.length &&
    have.every((subject, i) => subject === want[i]) &&
    current.max_age === wanted.max_age &&
    current.duplicate_window === wanted.duplicate_window
  );
}

function isStreamNotFound(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;
}
