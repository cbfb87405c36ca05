import type { RouteContext } from '../adapters/channel-adapter.js';
import type { RouteRow } from '../db/schema.js';
import type { SecretResolver } from './secrets.js';

/** What an adapter gets of a route: its settings, code map and resolved secrets. */
export function routeContext(route: RouteRow, secret: SecretResolver): RouteContext {
  const noticeSecretRef = route.config['noticeSecretRef'];
  return {
    id: route.id,
    config: route.config,
    codeMap: route.code_map,
    credentials: secret(route.credentials_ref),
    noticeSecret: typeof noticeSecretRef === 'string' ? secret(noticeSecretRef) : '',
  };
}
