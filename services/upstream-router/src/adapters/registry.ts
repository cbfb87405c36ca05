import type { ChannelAdapter } from './channel-adapter.js';
import { createSandboxAdapter } from './sandbox/sandbox.adapter.js';
import { createStpAdapter } from './stp/stp.adapter.js';

/** Adapters by the name a route's `adapter` column holds. */
export type AdapterRegistry = ReadonlyMap<string, ChannelAdapter>;

/** Every channel adapter the router knows. A new channel is one more entry here. */
export function createAdapters(options: { timeoutMs: number }): AdapterRegistry {
  return new Map([
    ['sandbox', createSandboxAdapter(options)],
    ['stp', createStpAdapter(options)],
  ]);
}
