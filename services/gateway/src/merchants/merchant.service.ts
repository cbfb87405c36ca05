import { createHash, type KeyObject } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { type MerchantLimits, type OwnLimits, resolveLimits, type SettleType } from '@agentpay/api';
import { isUniqueViolation } from '@agentpay/db';
import { parsePublicKey } from '@agentpay/wire';
import type { Kysely, Transaction } from 'kysely';
import type { Database, MerchantStatus } from '../db/schema.js';
import {
  countActiveKeys,
  findMerchant,
  insertKey,
  insertMerchant,
  listMerchants,
  lockMerchant,
  type MerchantRecord,
  replaceApps,
  revokeKeys,
  updateMerchant,
} from './merchant.repository.js';

/** At most this many keys are active at once: the current one and its successor during rotation. */
export const MAX_ACTIVE_KEYS = 2;

/** A merchant as the request path needs it: keys already parsed, ready to verify. */
export interface AuthMerchant {
  mchNo: string;
  /** Registered name: what a payer is shown as the beneficiary. */
  name: string;
  enabled: boolean;
  appIds: ReadonlySet<string>;
  publicKeys: readonly KeyObject[];
  feePercentBps: number;
  feeFixedCentavos: number;
  settleType: string;
  /** Requests per second; null means the platform default. */
  rateLimitPerS: number | null;
  /** The limits in effect: the merchant's own, else the platform's default (CONTRACT section 19). */
  limits: MerchantLimits;
  /** Transfers go only to registered, usable payees. */
  registeredPayeesOnly: boolean;
  /** Where its signed requests may come from; undefined: anywhere. */
  allowedIps: BlockList | undefined;
}

/** The addresses of `cidrs` (a.b.c.d/n, a bare address, IPv6 too) as one list; undefined when empty. */
export function allowListOf(cidrs: readonly string[]): BlockList | undefined {
  if (cidrs.length === 0) return undefined;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', bits] = cidr.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Whether `cidr` is an address or a subnet that allowListOf reads; the admin routes check with it. */
export function isCidr(cidr: string): boolean {
  const [address = '', bits, extra] = cidr.split('/');
  if (extra !== undefined) return false;
  const version = isIPv4(address) ? 4 : isIPv6(address) ? 6 : 0;
  if (version === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/** Refusals of the admin operations; the admin API maps `kind` to an HTTP status. */
export class MerchantAdminError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export interface CreateMerchantInput {
  mchNo: string;
  name: string;
  publicKey: string;
  appIds?: string[] | undefined;
  feeRate?: { percentBps: number; fixedCentavos: number } | undefined;
  settleType?: SettleType | undefined;
}

export interface UpdateMerchantInput {
  name?: string | undefined;
  status?: MerchantStatus | undefined;
  appIds?: string[] | undefined;
  feeRate?: { percentBps: number; fixedCentavos: number } | undefined;
  settleType?: SettleType | undefined;
  /** Requests per second for this merchant; null returns to the platform default. */
  rateLimitPerS?: number | null | undefined;
  /** Adds an active key (rotation step 1). */
  addPublicKey?: string | undefined;
  /** Revokes keys by id (rotation step 2). */
  revokeKeyIds?: string[] | undefined;
  /** The merchant's own limits, replacing what it had (CONTRACT section 19). */
  limits?: OwnLimits | undefined;
  registeredPayeesOnly?: boolean | undefined;
  /** CIDRs (checked with isCidr by the caller); empty: any address. */
  allowedIps?: string[] | undefined;
}

function fingerprintOf(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function parseKeyForAdmin(pem: string): { pem: string; fingerprint: string } {
  try {
    const key = parsePublicKey(pem);
    return { pem: key.export({ type: 'spki', format: 'pem' }).toString(), fingerprint: fingerprintOf(key) };
  } catch (err) {
    throw new MerchantAdminError('invalid', `publicKey: ${(err as Error).message}`);
  }
}

/** The admin API's view of a merchant: keys by fingerprint, never the key material itself. */
export function merchantView(record: MerchantRecord) {
  const m = record.merchant;
  return {
    mchNo: m.mch_no,
    name: m.name,
    status: m.status,
    appIds: record.appIds,
    feeRate: { percentBps: m.fee_percent_bps, fixedCentavos: m.fee_fixed_centavos },
    settleType: m.settle_type,
    rateLimitPerS: m.rate_limit_per_s,
    /** The merchant's own limits as stored (centavos); the limits in effect are limitsOf's. */
    ownLimits: m.limits,
    registeredPayeesOnly: m.registered_payees_only,
    allowedIps: m.allowed_ips,
    keys: record.keys.map((k) => ({
      id: k.id,
      fingerprint: k.fingerprint,
      status: k.status,
      createdAt: k.created_at.toISOString(),
      ...(k.revoked_at ? { revokedAt: k.revoked_at.toISOString() } : {}),
    })),
    createdAt: m.created_at.toISOString(),
    updatedAt: m.updated_at.toISOString(),
  };
}

export type MerchantView = ReturnType<typeof merchantView>;

/**
 * Merchants: the admin operations, and the cached lookup the request path uses. The cache keeps parsed
 * keys for `cacheMs`; changes made through this instance evict at once, other replicas see them after
 * at most `cacheMs`.
 */
export function createMerchantService(
  db: Kysely<Database>,
  opts: { cacheMs: number; defaultLimits: MerchantLimits },
) {
  const cache = new Map<string, { at: number; merchant: AuthMerchant | undefined }>();

  async function load(mchNo: string): Promise<AuthMerchant | undefined> {
    const record = await findMerchant(db, mchNo);
    if (!record) return undefined;
    const m = record.merchant;
    return {
      mchNo: m.mch_no,
      name: m.name,
      enabled: m.status === 'enabled',
      appIds: new Set(record.appIds),
      publicKeys: record.keys
        .filter((k) => k.status === 'active')
        .map((k) => parsePublicKey(k.public_key_pem)),
      feePercentBps: m.fee_percent_bps,
      feeFixedCentavos: m.fee_fixed_centavos,
      settleType: m.settle_type,
      rateLimitPerS: m.rate_limit_per_s,
      limits: resolveLimits(m.limits, opts.defaultLimits),
      registeredPayeesOnly: m.registered_payees_only,
      allowedIps: allowListOf(m.allowed_ips),
    };
  }

  async function requireRecord(mchNo: string): Promise<MerchantRecord> {
    const record = await findMerchant(db, mchNo);
    if (!record) throw new MerchantAdminError('not_found', `merchant ${mchNo} not found`);
    return record;
  }

  return {
    /** A page of merchants by number for the console's list (one more than `limit`: there is a next page). */
    list: (opts: Parameters<typeof listMerchants>[1]) => listMerchants(db, opts),
    /** The merchant for request authentication, from the cache when fresh. */
    async forAuth(mchNo: string): Promise<AuthMerchant | undefined> {
      const hit = cache.get(mchNo);
      if (hit && Date.now() - hit.at < opts.cacheMs) return hit.merchant;
      const merchant = await load(mchNo);
      cache.set(mchNo, { at: Date.now(), merchant });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
      return merchant;
    },

    async get(mchNo: string): Promise<MerchantView> {
      return merchantView(await requireRecord(mchNo));
    },

    /** The limits in effect for a merchant: its own where it set them, else the platform default. */
    async limitsOf(mchNo: string): Promise<MerchantLimits> {
      return resolveLimits((await requireRecord(mchNo)).merchant.limits, opts.defaultLimits);
    },

    /** The limits in effect were the merchant's own `own` (a PUT's preview and its lowering test). */
    resolve: (own: OwnLimits): MerchantLimits => resolveLimits(own, opts.defaultLimits),

    async create(input: CreateMerchantInput): Promise<MerchantView> {
      const key = parseKeyForAdmin(input.publicKey);
      try {
        await db.transaction().execute(async (trx) => {
          await insertMerchant(trx, {
            mch_no: input.mchNo,
            name: input.name,
            status: 'enabled',
            fee_percent_bps: input.feeRate?.percentBps ?? 0,
            fee_fixed_centavos: input.feeRate?.fixedCentavos ?? 0,
            settle_type: input.settleType ?? 'D+1',
          });
          await replaceApps(trx, input.mchNo, input.appIds ?? []);
          await insertKey(trx, { mchNo: input.mchNo, ...key });
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new MerchantAdminError('conflict', `merchant ${input.mchNo} already exists`);
        throw err;
      }
      cache.delete(input.mchNo);
      return this.get(input.mchNo);
    },

    /**
     * Changes a merchant in one transaction. `validateOnly` checks everything (the key, the ids, the count of
     * active keys) and rolls back; `also` writes more in the same transaction (an approval marked executed).
     */
    async update(
      mchNo: string,
      input: UpdateMerchantInput,
      opts: { validateOnly?: boolean; also?: (trx: Transaction<Database>) => Promise<void> } = {},
    ): Promise<MerchantView> {
      const added = input.addPublicKey === undefined ? undefined : parseKeyForAdmin(input.addPublicKey);
      const rolledBack = Symbol('validate only');
      const change = db.transaction().execute(async (trx) => {
        if (!(await lockMerchant(trx, mchNo)))
          throw new MerchantAdminError('not_found', `merchant ${mchNo} not found`);
        await updateMerchant(trx, mchNo, {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.status !== undefined && { status: input.status }),
          ...(input.settleType !== undefined && { settle_type: input.settleType }),
          ...(input.rateLimitPerS !== undefined && { rate_limit_per_s: input.rateLimitPerS }),
          ...(input.limits !== undefined && { limits: input.limits }),
          ...(input.registeredPayeesOnly !== undefined && {
            registered_payees_only: input.registeredPayeesOnly,
          }),
          ...(input.allowedIps !== undefined && { allowed_ips: input.allowedIps }),
          ...(input.feeRate !== undefined && {
            fee_percent_bps: input.feeRate.percentBps,
            fee_fixed_centavos: input.feeRate.fixedCentavos,
          }),
        });
        if (input.appIds !== undefined) await replaceApps(trx, mchNo, input.appIds);
        if (input.revokeKeyIds?.length) {
          const revoked = await revokeKeys(trx, mchNo, input.revokeKeyIds);
          if (revoked !== input.revokeKeyIds.length) {
            throw new MerchantAdminError(
              'invalid',
              'revokeKeyIds: some ids are not active keys of this merchant',
            );
          }
        }
        if (added) await insertKey(trx, { mchNo, ...added });
        const active = await countActiveKeys(trx, mchNo);
        if (active > MAX_ACTIVE_KEYS) {
          throw new MerchantAdminError(
            'invalid',
            `a merchant has at most ${MAX_ACTIVE_KEYS} active keys; revoke one first`,
          );
        }
        if (active === 0)
          throw new MerchantAdminError('invalid', 'a merchant must keep at least one active key');
        if (opts.validateOnly) throw rolledBack;
        await opts.also?.(trx);
      });
      try {
        await change;
      } catch (err) {
        if (err !== rolledBack) throw err;
        return this.get(mchNo);
      }
      cache.delete(mchNo);
      return this.get(mchNo);
    },
  };
}

export type MerchantService = ReturnType<typeof createMerchantService>;
