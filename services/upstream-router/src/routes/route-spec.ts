import type { AdapterRegistry } from '../adapters/registry.js';
import { BANK_PAYEE_TYPES, PAY_METHODS, PAYEE_TYPES, PUBLIC_BANK_CODES } from '../options/catalog.js';
import type { NewRoute } from './route.repository.js';
import { CREDENTIALS_REF, resolveCredentials } from './route-context.js';
import { SECRET_REF, type SecretResolver } from './secrets.js';

/** An operator's request the router refuses; the message names the field in the admin API's terms. */
export class RouteAdminError extends Error {
  override name = 'RouteAdminError';
  constructor(
    readonly kind: 'invalid' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/** Route ids appear in notice URLs and logs: short, lowercase, URL-safe. */
export const ROUTE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** The merchant number format of the gateway's admin API. */
export const MCH_NO = /^[A-Za-z0-9_-]{1,32}$/;
const UPSTREAM_CODE = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_PRIORITY = 1_000_000;
const MAX_WEIGHT = 1_000_000;

const invalid = (message: string) => new RouteAdminError('invalid', message);

function checkList(
  values: readonly string[],
  known: Readonly<Record<string, string>>,
  field: string,
): string[] {
  for (const value of values)
    if (known[value] === undefined)
      throw invalid(`${field}: unknown ${JSON.stringify(value)} (known: ${Object.keys(known).join(', ')})`);
  return [...new Set(values)];
}

/**
 * Checks a whole route as it would be stored and returns it normalised (lists without repeats, name
 * trimmed). Throws RouteAdminError('invalid') naming the first problem.
 */
export function checkRoute(route: NewRoute, adapters: AdapterRegistry, secret: SecretResolver): NewRoute {
  if (!ROUTE_ID.test(route.id))
    throw invalid('id: 1 to 63 lowercase letters, digits or -, starting with a letter or digit');
  const name = route.name.trim();
  if (name.length === 0 || name.length > 100) throw invalid('name: 1 to 100 characters');

  const adapter = adapters.get(route.adapter);
  if (!adapter)
    throw invalid(
      `adapter: unknown adapter ${JSON.stringify(route.adapter)} (known: ${[...adapters.keys()].join(', ')})`,
    );
  const { noticeUrl } = route.config;
  // A route (editable by operators) may only name variables of the secret families.
  const refKeys = Object.values(adapter.secretRefs);
  for (const key of refKeys) {
    if (key === CREDENTIALS_REF) continue;
    const ref = route.config[key];
    if (ref !== undefined && (typeof ref !== 'string' || !SECRET_REF.test(ref)))
      throw invalid(`config.${key}: must name a SANDBOX_*, UPSTREAM_* or CHANNEL_* variable`);
  }
  if (noticeUrl !== undefined && (typeof noticeUrl !== 'string' || !/^https?:\/\/\S+$/.test(noticeUrl)))
    throw invalid('config.noticeUrl: must be an http(s) URL');
  const usesCredentialsRef = refKeys.includes(CREDENTIALS_REF);
  if ((usesCredentialsRef || route.credentialsRef !== '') && !SECRET_REF.test(route.credentialsRef))
    throw invalid('credentialsRef: must name a SANDBOX_*, UPSTREAM_* or CHANNEL_* variable');
  const configProblem = adapter.configProblem(
    route.config,
    resolveCredentials(adapter, route.config, route.credentialsRef, secret),
  );
  if (configProblem) throw invalid(configProblem);

  const methods = checkList(route.methods, PAY_METHODS, 'methods');
  const payeeTypes = checkList(route.payeeTypes, PAYEE_TYPES, 'payeeTypes');
  if (methods.length === 0 && payeeTypes.length === 0)
    throw invalid('methods: a route serves at least one method or payee type');

  if (!Number.isInteger(route.priority) || route.priority < 0 || route.priority > MAX_PRIORITY)
    throw invalid(`priority: an integer from 0 to ${MAX_PRIORITY}`);
  if (!Number.isInteger(route.weight) || route.weight < 0 || route.weight > MAX_WEIGHT)
    throw invalid(`weight: an integer from 0 to ${MAX_WEIGHT}`);
  if (route.merchantScope !== 'all' && route.merchantScope !== 'list')
    throw invalid('merchantScope: all or list');

  for (const [publicCode, upstreamCode] of Object.entries(route.codeMap)) {
    // Merchants only ever send public codes; a raw channel code as a key would never match.
    if (!PUBLIC_BANK_CODES.has(publicCode))
      throw invalid(`codeMap.${publicCode}: not a public Banxico institution code`);
    if (typeof upstreamCode !== 'string' || !UPSTREAM_CODE.test(upstreamCode))
      throw invalid(`codeMap.${publicCode}: the upstream code must be 1 to 32 letters, digits, _ or -`);
  }
  if (payeeTypes.some((t) => BANK_PAYEE_TYPES.has(t)) && Object.keys(route.codeMap).length === 0)
    throw invalid('codeMap: required for a route serving spei_transfer or bank_card');

  return { ...route, name, methods, payeeTypes };
}

export function checkMchNo(mchNo: string, field = 'mchNo'): string {
  if (!MCH_NO.test(mchNo)) throw invalid(`${field}: 1 to 32 letters, digits, _ or -`);
  return mchNo;
}

/** A route's config_json: a JSON object. */
export function parseConfig(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json || '{}');
  } catch {
    throw invalid('config: not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('config: must be a JSON object');
  return value as Record<string, unknown>;
}
