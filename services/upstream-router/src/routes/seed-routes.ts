import { institutions } from '@agentpay/spei';
import type { Kysely } from 'kysely';
import type { RouterConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { SANDBOX_CODE_MAP } from '../options/catalog.js';
import { type NewRoute, seedRouteOnce } from './route.repository.js';

/** STP's institution codes are Banxico's: a payee's public code is the code STP is sent. */
const SPEI_CODE_MAP: Readonly<Record<string, string>> = Object.fromEntries(
  institutions.map((i) => [i.spei, i.spei]),
);

/** The dev stack's company at the STP emulator (services/upstream-sandbox README "The STP face"). */
export const EMULATOR_EMPRESA = 'AGENTPAY';
export const EMULATOR_CLABE_PREFIX = '6461805555';

/** The route every fresh stack has: the sandbox channel, enabled, open to every merchant. */
export function sandboxRoute(config: RouterConfig): NewRoute {
  return {
    id: 'sandbox-default',
    name: 'Sandbox',
    adapter: 'sandbox',
    config: {
      baseUrl: config.SANDBOX_URL,
      noticeUrl: `${config.PUBLIC_NOTICE_URL}/notices/sandbox-default`,
      noticeSecretRef: 'SANDBOX_NOTICE_SECRET',
    },
    credentialsRef: 'SANDBOX_API_KEY',
    enabled: true,
    methods: ['mex_virtual_account'],
    payeeTypes: ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'],
    priority: 100,
    weight: 100,
    merchantScope: 'all',
    codeMap: SANDBOX_CODE_MAP,
  };
}

/**
 * Creates the fresh stack's routes outside production, each once in the life of the database (an operator
 * who disables or deletes one keeps it that way): the sandbox route and the `stp` route to the STP emulator.
 * In production nothing is seeded: a sandbox route there answers "unavailable" to every call, and would be
 * asked about every payout whose route was never recorded. Answers the ids created now.
 */
export async function seedRoutes(db: Kysely<Database>, config: RouterConfig): Promise<string[]> {
  if (config.production) return [];
  const routes = [sandboxRoute(config), stpEmulatorRoute(config)];
  const seeded: string[] = [];
  for (const route of routes)
    if (await db.transaction().execute((trx) => seedRouteOnce(trx, route))) seeded.push(route.id);
  return seeded;
}

/**
 * The `stp` route a fresh stack outside production gets: the sandbox's STP face, signed with STP's public
 * demo key (the CHANNEL_STP_* development defaults), serving only the merchants bound to it and preferred
 * over the sandbox route for them.
 */
export function stpEmulatorRoute(config: RouterConfig): NewRoute {
  const base = config.SANDBOX_URL.replace(/\/+$/, '');
  return {
    id: 'stp-default',
    name: 'STP (emulator)',
    adapter: 'stp',
    config: {
      empresa: EMULATOR_EMPRESA,
      speiBase: `${base}/stp/speiws/rest`,
      efwsBase: `${base}/stp/efws/API`,
      clabePrefix: EMULATOR_CLABE_PREFIX,
      // The company's own account: number 0 under its prefix, never assigned to an order.
      cuentaOrdenante: '646180555500000009',
      privateKeyRef: 'CHANNEL_STP_PRIVATE_KEY',
      passphraseRef: 'CHANNEL_STP_PASSPHRASE',
      webhookAllow: ['127.0.0.1/32', '::1/128'],
      verifyDeposits: true,
      verifyNotices: true,
      noticeUrl: `${config.PUBLIC_NOTICE_URL.replace(/\/+$/, '')}/notices/stp-default`,
    },
    credentialsRef: '',
    enabled: true,
    methods: ['mex_virtual_account'],
    payeeTypes: ['spei_transfer', 'bank_card'],
    priority: 50,
    weight: 100,
    merchantScope: 'list',
    codeMap: SPEI_CODE_MAP,
  };
}
