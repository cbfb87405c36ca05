import type { ChannelAdapter, RouteContext } from '../adapters/channel-adapter.js';
import type { RouteRow } from '../db/schema.js';
import type { SecretResolver } from './secrets.js';

/** The config key that stands for the route's `credentials_ref` column in an adapter's `secretRefs`. */
export const CREDENTIALS_REF = 'credentialsRef';

/** The route's secrets by the adapter's names, each resolved from the variable the route names ('' when unset). */
export function resolveCredentials(
  adapter: ChannelAdapter,
  config: Record<string, unknown>,
  credentialsRef: string,
  secret: SecretResolver,
): Record<string, string> {
  const credentials: Record<string, string> = {};
  for (const [name, key] of Object.entries(adapter.secretRefs)) {
    const ref = key === CREDENTIALS_REF ? credentialsRef : config[key];
    credentials[name] = typeof ref === 'string' && ref ? secret(ref) : '';
  }
  return credentials;
}

/** What an adapter gets of a route: its settings, code map and resolved secrets. */
export function routeContext(route: RouteRow, adapter: ChannelAdapter, secret: SecretResolver): RouteContext {
  return {
    id: route.id,
    config: route.config,
    codeMap: route.code_map,
    credentials: resolveCredentials(adapter, route.config, route.credentials_ref, secret),
  };
}
