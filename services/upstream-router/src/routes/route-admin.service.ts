import type { Logger } from '@agentpay/logger';
import type { RouteSpec__Output } from '@agentpay/proto';
import type { Kysely, Transaction } from 'kysely';
import type { AdapterRegistry } from '../adapters/registry.js';
import type { Database, RouteRow } from '../db/schema.js';
import type { BreakerSnapshot, Breakers } from '../routing/circuit-breaker.js';
import {
  bindMerchant,
  boundMerchants,
  type ChangedBy,
  findRoute,
  insertRoute,
  listRoutes,
  lockRoute,
  type NewRoute,
  replaceMerchants,
  routeWithClabePrefix,
  saveRoute,
  touchRoute,
  unbindMerchant,
} from './route.repository.js';
import { checkMchNo, checkRoute, parseConfig, RouteAdminError } from './route-spec.js';
import type { SecretResolver } from './secrets.js';

/** A route as operators see it: its settings, bindings, and this replica's breaker. */
export interface RouteView {
  route: NewRoute;
  merchants: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Labels of the operators who created and last changed the route; '' when not named. */
  createdBy: string;
  updatedBy: string;
  /** The approval (four eyes) of the last change that had one. */
  approvalId: string;
  health: BreakerSnapshot;
}

/**
 * Who asks for a change and whether to make it: `validateOnly` checks it in full, inside a transaction that
 * is then rolled back, and answers the route as it would be (the gateway's check before an approval).
 */
export interface ChangeOrigin {
  by: string;
  approvalId: string;
  validateOnly: boolean;
}

/** Carries the view a validate-only change computed out of its transaction, rolling it back. */
class DryRun extends Error {
  constructor(readonly view: RouteView) {
    super('validate only: rolled back');
  }
}

/** RouteSpec fields an update may name. */
const UPDATABLE = new Set([
  'name',
  'adapter',
  'config_json',
  'credentials_ref',
  'enabled',
  'methods',
  'payee_types',
  'priority',
  'weight',
  'merchant_scope',
  'code_map',
]);

/** Settings that decide whether the channel can be reached; changing one forgets the breaker's verdict. */
const CONNECTION_FIELDS = ['adapter', 'config_json', 'credentials_ref'];

function toNewRoute(row: RouteRow): NewRoute {
  return {
    id: row.id,
    name: row.name,
    adapter: row.adapter,
    config: row.config,
    credentialsRef: row.credentials_ref,
    enabled: row.enabled,
    methods: row.methods,
    payeeTypes: row.payee_types,
    priority: row.priority,
    weight: row.weight,
    merchantScope: row.merchant_scope === 'list' ? 'list' : 'all',
    codeMap: row.code_map,
  };
}

/** JSON merge patch (RFC 7396) of one level: a null removes the key. */
function mergeConfig(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * The operators' management of routes (the gateway's admin API forwards here). Every change is one
 * transaction and applies to the next create call: selection reads the routes table on each call.
 */
export function createRouteAdminService(deps: {
  db: Kysely<Database>;
  adapters: AdapterRegistry;
  /** Resolves the secrets a route names, so a key that does not load is refused when the route is saved. */
  secret: SecretResolver;
  breakers: Breakers;
  logger: Logger;
  /** Base of the router's notice endpoint, for routes created without a config.noticeUrl. */
  publicNoticeUrl: string;
  /** Called once a change has committed, before the answer: this replica's route cache drops it. */
  onChange?: () => void;
}) {
  const { db, adapters, breakers, logger } = deps;

  async function view(
    row: RouteRow,
    merchants?: string[],
    q: Kysely<Database> | Transaction<Database> = db,
  ): Promise<RouteView> {
    return {
      route: toNewRoute(row),
      merchants: merchants ?? (await boundMerchants(q, [row.id])).get(row.id) ?? [],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      createdBy: row.created_by,
      updatedBy: row.updated_by,
      approvalId: row.approval_id,
      health: breakers.snapshot(row.id),
    };
  }

  const changedBy = (origin: ChangeOrigin | undefined): ChangedBy | undefined =>
    origin && { by: origin.by, approvalId: origin.approvalId };

  async function existing(id: string): Promise<RouteRow> {
    const row = await findRoute(db, id);
    if (!row) throw new RouteAdminError('not_found', `no route ${JSON.stringify(id)}`);
    return row;
  }

  /** Runs `change` on the locked route; answers the route as committed. */
  /**
   * Two routes assigning CLABEs under one prefix could give one CLABE to two orders: a prefix belongs to one
   * route. (A check, not a constraint: two operators creating such routes in the same instant both pass.)
   */
  async function checkPrefixFree(
    q: Kysely<Database> | Transaction<Database>,
    route: NewRoute,
  ): Promise<void> {
    const prefix = route.config['clabePrefix'];
    if (typeof prefix !== 'string' || adapters.get(route.adapter)?.accounts.kind !== 'assigned') return;
    const holder = await routeWithClabePrefix(q, prefix, route.id);
    if (holder)
      throw new RouteAdminError(
        'invalid',
        `config.clabePrefix: route ${holder} already assigns CLABEs under ${prefix}`,
      );
  }

  async function modify(
    id: string,
    origin: ChangeOrigin | undefined,
    change: (trx: Transaction<Database>, current: RouteRow) => Promise<void>,
  ): Promise<RouteView> {
    try {
      await db.transaction().execute(async (trx) => {
        const current = await lockRoute(trx, id);
        if (!current) throw new RouteAdminError('not_found', `no route ${JSON.stringify(id)}`);
        await change(trx, current);
        if (origin?.validateOnly) {
          const after = await lockRoute(trx, id);
          if (!after) throw new RouteAdminError('not_found', `no route ${JSON.stringify(id)}`);
          throw new DryRun(await view(after, undefined, trx));
        }
      });
    } catch (err) {
      if (err instanceof DryRun) return err.view;
      throw err;
    }
    deps.onChange?.();
    return view(await existing(id));
  }

  return {
    async list(): Promise<RouteView[]> {
      const rows = await listRoutes(db);
      const bound = await boundMerchants(
        db,
        rows.map((r) => r.id),
      );
      return Promise.all(rows.map((row) => view(row, bound.get(row.id) ?? [])));
    },

    async get(id: string): Promise<RouteView> {
      return view(await existing(id));
    },

    async create(spec: RouteSpec__Output, origin?: ChangeOrigin): Promise<RouteView> {
      const config = parseConfig(spec.config_json);
      if (config['noticeUrl'] === undefined && /^[a-z0-9-]+$/.test(spec.id))
        config['noticeUrl'] = `${deps.publicNoticeUrl.replace(/\/+$/, '')}/notices/${spec.id}`;
      const route = checkRoute(
        {
          id: spec.id,
          name: spec.name,
          adapter: spec.adapter,
          config,
          credentialsRef: spec.credentials_ref,
          enabled: spec.enabled,
          methods: spec.methods,
          payeeTypes: spec.payee_types,
          priority: spec.priority,
          weight: spec.weight,
          merchantScope: spec.merchant_scope as NewRoute['merchantScope'],
          codeMap: spec.code_map,
        },
        adapters,
        deps.secret,
      );
      await checkPrefixFree(db, route);
      if (origin?.validateOnly) {
        if (await findRoute(db, route.id))
          throw new RouteAdminError('conflict', `route ${JSON.stringify(route.id)} exists`);
        const now = new Date();
        return {
          route,
          merchants: [],
          createdAt: now,
          updatedAt: now,
          createdBy: origin.by,
          updatedBy: origin.by,
          approvalId: origin.approvalId,
          health: breakers.snapshot(route.id),
        };
      }
      if (!(await insertRoute(db, route, changedBy(origin))))
        throw new RouteAdminError('conflict', `route ${JSON.stringify(route.id)} exists`);
      deps.onChange?.();
      // A route id used before (a deleted route) starts with a clean breaker.
      breakers.reset(route.id);
      logger.info({ routeId: route.id, enabled: route.enabled, by: origin?.by }, 'route created');
      return view(await existing(route.id), []);
    },

    async update(
      id: string,
      changes: RouteSpec__Output,
      fields: readonly string[],
      origin?: ChangeOrigin,
    ): Promise<RouteView> {
      for (const field of fields)
        if (!UPDATABLE.has(field)) throw new RouteAdminError('invalid', `${field}: cannot be changed`);
      const set = new Set(fields);
      let reconnect = false;
      const result = await modify(id, origin, async (trx, row) => {
        const current = toNewRoute(row);
        const next = checkRoute(
          {
            ...current,
            name: set.has('name') ? changes.name : current.name,
            adapter: set.has('adapter') ? changes.adapter : current.adapter,
            config: set.has('config_json')
              ? mergeConfig(current.config, parseConfig(changes.config_json))
              : current.config,
            credentialsRef: set.has('credentials_ref') ? changes.credentials_ref : current.credentialsRef,
            enabled: set.has('enabled') ? changes.enabled : current.enabled,
            methods: set.has('methods') ? changes.methods : current.methods,
            payeeTypes: set.has('payee_types') ? changes.payee_types : current.payeeTypes,
            priority: set.has('priority') ? changes.priority : current.priority,
            weight: set.has('weight') ? changes.weight : current.weight,
            merchantScope: set.has('merchant_scope')
              ? (changes.merchant_scope as NewRoute['merchantScope'])
              : current.merchantScope,
            codeMap: set.has('code_map') ? changes.code_map : current.codeMap,
          },
          adapters,
          deps.secret,
        );
        reconnect = (next.enabled && !current.enabled) || CONNECTION_FIELDS.some((f) => set.has(f));
        await checkPrefixFree(trx, next);
        await saveRoute(trx, next, changedBy(origin));
      });
      if (origin?.validateOnly) return result;
      if (reconnect) breakers.reset(id);
      logger.info({ routeId: id, changed: fields, by: origin?.by }, 'route updated');
      return result;
    },

    async setEnabled(id: string, enabled: boolean, origin?: ChangeOrigin): Promise<RouteView> {
      let reenabled = false;
      const result = await modify(id, origin, async (trx, row) => {
        reenabled = enabled && !row.enabled;
        if (row.enabled !== enabled) await saveRoute(trx, { ...toNewRoute(row), enabled }, changedBy(origin));
      });
      if (origin?.validateOnly) return result;
      // An operator bringing a route back has presumably fixed it: it gets traffic at once here.
      if (reenabled) breakers.reset(id);
      logger.info({ routeId: id, enabled, by: origin?.by }, enabled ? 'route enabled' : 'route disabled');
      return result;
    },

    async setMerchants(id: string, mchNos: readonly string[], origin?: ChangeOrigin): Promise<RouteView> {
      const checked = [...new Set(mchNos.map((m, i) => checkMchNo(m, `merchants.${i}`)))];
      const result = await modify(id, origin, async (trx) => {
        await replaceMerchants(trx, id, checked);
        await touchRoute(trx, id, changedBy(origin));
      });
      if (origin?.validateOnly) return result;
      logger.info({ routeId: id, merchants: checked.length }, 'route merchants replaced');
      return result;
    },

    async bind(id: string, mchNo: string, origin?: ChangeOrigin): Promise<RouteView> {
      checkMchNo(mchNo);
      const result = await modify(id, origin, async (trx) => {
        await bindMerchant(trx, id, mchNo);
        await touchRoute(trx, id, changedBy(origin));
      });
      if (origin?.validateOnly) return result;
      logger.info({ routeId: id, mchNo }, 'merchant bound to route');
      return result;
    },

    async unbind(id: string, mchNo: string, origin?: ChangeOrigin): Promise<RouteView> {
      checkMchNo(mchNo);
      const result = await modify(id, origin, async (trx) => {
        await unbindMerchant(trx, id, mchNo);
        await touchRoute(trx, id, changedBy(origin));
      });
      if (origin?.validateOnly) return result;
      logger.info({ routeId: id, mchNo }, 'merchant unbound from route');
      return result;
    },
  };
}

export type RouteAdminService = ReturnType<typeof createRouteAdminService>;
