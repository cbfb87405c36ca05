import { join } from 'node:path';
import protobuf from 'protobufjs';
import type {
  NoticeReceived__Output,
  OrderSettled__Output,
  OrderStatusChanged__Output,
} from './generated/index.js';
import { PROTO_DIR } from './load.js';

interface Events {
  OrderStatusChanged: OrderStatusChanged__Output;
  NoticeReceived: NoticeReceived__Output;
  OrderSettled: OrderSettled__Output;
}

let root: protobuf.Root | undefined;

function eventsRoot(): protobuf.Root {
  if (!root) {
    const loaded = new protobuf.Root();
    loaded.resolvePath = (_origin, target) => join(PROTO_DIR, target);
    loaded.loadSync('events/v1/events.proto', { keepCase: true });
    root = loaded;
  }
  return root;
}

/**
 * Decodes an event's JSON text (the proto JSON mapping with original field names, as the outbox relays
 * publish it) into its generated `__Output` shape, every field present. Throws an Error saying what is
 * wrong when the text is not JSON or a field has the wrong type; fields the contract does not know are
 * ignored, as the JSON mapping allows.
 */
export function decodeEvent<K extends keyof Events>(type: K, json: string): Events[K] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('event is not JSON');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new Error('event is not an object');
  const message = eventsRoot().lookupType(`agentpay.events.v1.${type}`);
  let decoded: protobuf.Message;
  try {
    decoded = message.fromObject(raw as Record<string, unknown>);
  } catch (err) {
    throw new Error(`event ${err instanceof Error ? err.message : String(err)}`);
  }
  // The runtime loader's options, so the object has the shape of the generated `__Output` type.
  return message.toObject(decoded, {
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  }) as Events[K];
}
