// An STP route's settings (CONTRACT.md section 16 "Route settings"), its signing key and its client. The key
// is loaded once per PEM and passphrase: an encrypted PKCS#8 key costs a key derivation to open.

import { createHash, type KeyObject } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { validateClabe } from '@agentpay/spei';
import { z } from 'zod';
import { type RouteContext, UpstreamUnavailableError } from '../channel-adapter.js';
import { createStpClient, type StpClient } from './stp.client.js';
import { loadSigningKey } from './stp.signing.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** A CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a single address. */
const cidr = z.string().refine((value) => parseCidr(value) !== undefined, 'must be an address or a CIDR');

export const stpRouteConfig = z.strictObject({
  /** The company code STP assigned (`empresa`). */
  empresa: z.string().min(1).max(15),
  /** e.g. `https://prod.stpmex.com/speiws/rest` (registraOrden). */
  speiBase: httpUrl,
  /** e.g. `https://efws.stpmex.com/efws/API` (consultaOrden, conciliacion). */
  efwsBase: httpUrl,
  /** `646180` + the company's 4-digit code: the first 10 digits of every CLABE the platform assigns. */
  clabePrefix: z.string().regex(/^646\d{7}$/, 'must be 10 digits starting 646'),
  /** The company's own CLABE at STP, the payer of every payout. */
  cuentaOrdenante: z.string().refine((v) => validateClabe(v).ok, 'must be a valid CLABE'),
  /** Environment variable holding the PEM private key registered with STP. */
  privateKeyRef: z.string().min(1, 'required: the variable holding the signing key'),
  /** Environment variable holding the key's passphrase. */
  passphraseRef: z.string().min(1).optional(),
  /** Addresses allowed to call the route's webhooks; anyone else gets 403. */
  webhookAllow: z.array(cidr),
  /** Confirm each deposit with consultaOrden before it pays an order; default true. */
  verifyDeposits: z.boolean().optional(),
  /** Confirm each cambio-estado with consultaOrden and apply STP's answer, never the notice's; default true. */
  verifyNotices: z.boolean().optional(),
  timeoutMs: z.number().int().min(1).max(120_000).optional(),
  /** The webhook base to give STP (`…/notices/<routeId>`); informational. */
  noticeUrl: httpUrl.optional(),
  /** The name payers see for the platform's accounts; default the company code. */
  beneficiaryName: z.string().min(1).max(40).optional(),
});

export type StpRouteConfig = z.output<typeof stpRouteConfig>;

function parseCidr(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', bits, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits)))
    return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether `address` (as the socket gives it, IPv4-mapped IPv6 included) is inside one of the CIDRs. */
export function allowed(cidrs: readonly string[], address: string): boolean {
  const list = new BlockList();
  for (const value of cidrs) {
    const parsed = parseCidr(value);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const version = isIP(plain);
  if (version === 0) return false;
  return list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}

/** The route's settings; a route saved through the admin API always passes, so a failure is a broken route. */
export function stpConfig(route: RouteContext): StpRouteConfig {
  const parsed = stpRouteConfig.safeParse(route.config);
  if (!parsed.success) throw new UpstreamUnavailableError(`route ${route.id}: STP settings are not usable`);
  return parsed.data;
}

/** Opens signing keys once per PEM and passphrase. */
export function createKeyCache() {
  const keys = new Map<string, KeyObject>();
  return (pem: string, passphrase: string): KeyObject => {
    const id = createHash('sha256').update(passphrase).update('\0').update(pem).digest('hex');
    let key = keys.get(id);
    if (!key) {
      key = loadSigningKey(pem, passphrase);
      keys.set(id, key);
    }
    return key;
  };
}

export type KeyCache = ReturnType<typeof createKeyCache>;

/** The route's STP client, signing with its key; a route whose key does not load is unavailable. */
export function routeClient(route: RouteContext, keyOf: KeyCache, defaultTimeoutMs: number): StpClient {
  const config = stpConfig(route);
  const pem = route.credentials['privateKey'] ?? '';
  if (!pem) throw new UpstreamUnavailableError(`route ${route.id}: its signing key variable is not set`);
  let key: KeyObject;
  try {
    key = keyOf(pem, route.credentials['passphrase'] ?? '');
  } catch (err) {
    throw new UpstreamUnavailableError(`route ${route.id}: ${(err as Error).message}`);
  }
  return createStpClient({
    speiBase: config.speiBase,
    efwsBase: config.efwsBase,
    empresa: config.empresa,
    key,
    timeoutMs: config.timeoutMs ?? defaultTimeoutMs,
  });
}
