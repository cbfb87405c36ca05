import {
  type ChannelAdapter,
  type RouteContext,
  UpstreamUnavailableError,
} from '../adapters/channel-adapter.js';
import type { AdapterRegistry } from '../adapters/registry.js';
import type { RouteRow } from '../db/schema.js';
import { routeContext } from './route-context.js';
import type { SecretResolver } from './secrets.js';

export interface Channel {
  adapter: ChannelAdapter;
  route: RouteContext;
}

/** Pairs a route with its adapter and resolved secrets. */
export function createChannels(adapters: AdapterRegistry, secret: SecretResolver) {
  return {
    /** Resolves secret references (environment variable names) the way routes do. */
    secret,
    /** The route's channel; a route naming an adapter this build lacks is unusable (so failover skips it). */
    of(route: RouteRow): Channel {
      const adapter = adapters.get(route.adapter);
      if (!adapter)
        throw new UpstreamUnavailableError(`route ${route.id} names unknown adapter ${route.adapter}`);
      return { adapter, route: routeContext(route, adapter, secret) };
    },
  };
}

export type Channels = ReturnType<typeof createChannels>;
