import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkFile,
  gatewayModulesMeetThroughIndex,
  gatewayModulesWithoutCycles,
  gatewayTwoWayPairs,
  grpcHandlersOnlyMap,
  noReachIntoAnotherService,
  oneOutboxWriter,
  RULES,
  type Rule,
  repositoriesOpenNoTransaction,
  routeHandlersUseTheirRepository,
  type SourceFile,
  subjectsBuiltInMessaging,
  TREE_RULES,
  treeSources,
} from './architecture/rules.js';

// docs/architecture.md "Rules the tree keeps": each rule is proven to catch a violation planted in memory,
// to pass the compliant version of the same file, and then holds over the whole working tree.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Plant {
  rule: Rule;
  violation: SourceFile;
  compliant: SourceFile;
}

const plants: Plant[] = [
  {
    rule: grpcHandlersOnlyMap,
    violation: {
      path: 'services/ledger/src/ledger.grpc.ts',
      text: `import { listRecords } from './ledger/records.repository.js';\nexport const x = listRecords;\n`,
    },
    compliant: {
      path: 'services/ledger/src/ledger.grpc.ts',
      text: `import { toLedgerRecord } from './ledger.mapper.js';\nimport type { LedgerQueries } from './ledger/ledger-queries.service.js';\n`,
    },
  },
  {
    rule: repositoriesOpenNoTransaction,
    violation: {
      path: 'services/notifier/src/deliveries/delivery.repository.ts',
      text: `export function f(db: any) {\n  return db.transaction().execute(async (trx: any) => trx);\n}\n`,
    },
    compliant: {
      path: 'services/notifier/src/deliveries/delivery.repository.ts',
      // A comment naming db.transaction() is not a call.
      text: `// not db.transaction()\nexport function f(trx: any) {\n  return trx.selectFrom('deliveries').execute();\n}\n`,
    },
  },
  {
    rule: subjectsBuiltInMessaging,
    violation: {
      path: 'services/payments/src/main.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a planted source file
      text: 'const prefix = "agentpay.events";\nexport const s = `${prefix}.ledger.order_settled`;\n',
    },
    compliant: {
      path: 'services/payments/src/main.ts',
      text: `import { orderSettledSubject } from '@agentpay/messaging';\n// <prefix>.ledger.order_settled\nexport const s = orderSettledSubject('agentpay.events');\n`,
    },
  },
  {
    rule: oneOutboxWriter,
    violation: {
      path: 'services/ledger/src/ledger/ledger.repository.ts',
      text: `export async function w(trx: any) {\n  await trx.insertInto('outbox').values({ id: 'x' }).execute();\n}\n`,
    },
    compliant: {
      path: 'services/ledger/src/ledger/ledger.repository.ts',
      text: `import { enqueueEvents } from '@agentpay/messaging';\nexport const w = (trx: any) => enqueueEvents(trx, []);\n`,
    },
  },
  {
    rule: noReachIntoAnotherService,
    violation: {
      path: 'bench/recon.ts',
      text: `import { matchDay } from '../services/ledger/src/reconciliation/reconciliation.repository.js';\n`,
    },
    compliant: {
      path: 'bench/recon.ts',
      text: `import { matchDay } from '@agentpay/ledger/bench';\n`,
    },
  },
  {
    rule: gatewayModulesMeetThroughIndex,
    violation: {
      path: 'services/gateway/src/orders/orders-admin.routes.ts',
      text: `import { adminCall } from '../approvals/admin-operation.js';\n`,
    },
    compliant: {
      path: 'services/gateway/src/orders/orders-admin.routes.ts',
      text: `import { adminCall } from '../approvals/index.js';\nimport { badRequest } from '../shared/schema-problem.js';\nimport { orderDetail } from './order-views.js';\n`,
    },
  },
  {
    rule: routeHandlersUseTheirRepository,
    violation: {
      path: 'services/gateway/src/merchants/merchant-list.routes.ts',
      text: `import type { Kysely } from 'kysely';\nexport type Db = Kysely<unknown>;\n`,
    },
    compliant: {
      path: 'services/gateway/src/merchants/merchant-list.routes.ts',
      text: `import type { MerchantService } from './merchant.service.js';\nimport type { CashierLinks } from '../merchant-api/index.js';\n`,
    },
  },
];

/** Two gateway modules as files in memory: orders imports ledger, and `back` says whether ledger imports orders. */
const twoModules = (back: boolean): SourceFile[] => [
  {
    path: 'services/gateway/src/orders/order-timeline.ts',
    text: `import { balanceView } from '../ledger/index.js';\nexport const v = balanceView;\n`,
  },
  {
    path: 'services/gateway/src/ledger/index.ts',
    text: `export { balanceView } from './ledger.views.js';\n${back ? "export { createTimelines } from '../orders/index.js';\n" : ''}`,
  },
  { path: 'services/gateway/src/main.ts', text: `import { createTimelines } from './orders/index.js';\n` },
];

describe('the architecture rules', () => {
  it.each(plants.map((plant) => [plant.rule.name, plant] as const))(
    '%s: flags a planted violation and passes its compliant twin',
    (_name, plant) => {
      const found = plant.rule.check(plant.violation);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ rule: plant.rule.name, path: plant.violation.path });
      expect(plant.rule.check(plant.compliant)).toEqual([]);
    },
  );

  it('every rule has a planted violation', () => {
    expect(plants.map((p) => p.rule.name).sort()).toEqual(RULES.map((r) => r.name).sort());
    expect(TREE_RULES.map((r) => r.name)).toEqual([gatewayModulesWithoutCycles.name]);
  });

  it(`${gatewayModulesWithoutCycles.name}: flags two modules importing each other, and a ring of three`, () => {
    const pair = gatewayModulesWithoutCycles.check(twoModules(true));
    expect(pair).toHaveLength(1);
    expect(pair[0]?.message).toContain('ledger -> orders');
    expect(pair[0]?.message).toContain('orders -> ledger');
    expect(gatewayTwoWayPairs(twoModules(true))).toEqual(['ledger <-> orders']);
    expect(gatewayModulesWithoutCycles.check(twoModules(false))).toEqual([]);
    expect(gatewayTwoWayPairs(twoModules(false))).toEqual([]);
    // A ring has no two-way pair, and is a cycle all the same; the composition root (src/'s files) is none.
    const ring = ['a', 'b', 'c'].map((m, i) => ({
      path: `services/gateway/src/${m}/index.ts`,
      text: `export * from '../${['b', 'c', 'a'][i]}/index.js';\n`,
    }));
    expect(gatewayTwoWayPairs(ring)).toEqual([]);
    expect(gatewayModulesWithoutCycles.check(ring).map((v) => v.message)).toEqual([
      expect.stringContaining('modules a, b, c import each other'),
    ]);
  });

  it('flags the other shapes of each violation', () => {
    const flagged = (file: SourceFile) => checkFile(file).map((v) => v.rule);
    // A consumer filter written out, and a subject tested by its suffix.
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a planted source file
      flagged({ path: 'services/notifier/src/main.ts', text: 'export const f = `${p}.*.status_changed`;' }),
    ).toEqual([subjectsBuiltInMessaging.name]);
    expect(
      flagged({
        path: 'services/notifier/src/x.ts',
        text: "export const y = (s: string) => s.endsWith('.status_changed');",
      }),
    ).toEqual([subjectsBuiltInMessaging.name]);
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a planted source file
      flagged({ path: 'bench/fill.ts', text: "export const q = `insert ... '${p}.notice.payment'`;" }),
    ).toEqual([subjectsBuiltInMessaging.name]);
    // An outbox row written in SQL, and the traceparent-less writer.
    expect(
      flagged({
        path: 'services/ledger/src/x.ts',
        text: 'export const q = sql`insert into outbox (id) values (1)`;',
      }),
    ).toEqual([oneOutboxWriter.name]);
    expect(
      flagged({
        path: 'services/transfers/src/x.ts',
        text: "import { enqueueOutbox } from '@agentpay/messaging';",
      }),
    ).toEqual([oneOutboxWriter.name]);
    // A service reaching into another's src/, a package importing a service, and a dynamic import.
    expect(
      flagged({ path: 'services/payments/src/x.ts', text: "import { a } from '../../transfers/src/a.js';" }),
    ).toEqual([noReachIntoAnotherService.name]);
    expect(
      flagged({ path: 'packages/stack/src/x.ts', text: "import { main } from '@agentpay/ledger';" }),
    ).toEqual([noReachIntoAnotherService.name]);
    expect(
      flagged({
        path: 'scripts/chaos/x.ts',
        text: "export const m = () => import('../../services/payments/src/main.js');",
      }),
    ).toEqual([noReachIntoAnotherService.name]);
    // A gateway module reaching into another's files, a shared helper importing a module, a module importing
    // the composition root, and a route handler reading another module's repository or the store's schema.
    expect(
      flagged({
        path: 'services/gateway/src/ledger/ledger-admin.routes.ts',
        text: "export const m = () => import('../merchants/merchant.service.js');",
      }),
    ).toEqual([gatewayModulesMeetThroughIndex.name]);
    expect(
      flagged({
        path: 'services/gateway/src/shared/x.ts',
        text: "import { ALL } from '../identity/index.js';",
      }),
    ).toEqual([gatewayModulesMeetThroughIndex.name]);
    expect(
      flagged({
        path: 'services/gateway/src/orders/x.ts',
        text: "import { gatewayEnv } from '../config.js';",
      }),
    ).toEqual([gatewayModulesMeetThroughIndex.name]);
    expect(
      flagged({
        path: 'services/gateway/src/merchant-api/cashier/cashier.routes.ts',
        text: "import type { Database } from '../../db/schema.js';",
      }),
    ).toEqual([routeHandlersUseTheirRepository.name]);
    expect(
      flagged({
        path: 'services/gateway/src/orders/orders-admin.routes.ts',
        text: "import { listApprovals } from '../approvals/approval.repository.js';",
      }),
    ).toEqual([gatewayModulesMeetThroughIndex.name, routeHandlersUseTheirRepository.name]);
    // A module's own repository, a service or a non-route file touching the store are fine.
    expect(
      flagged({
        path: 'services/gateway/src/merchant-api/cashier/cashier.routes.ts',
        text: "import type { CashierLinks } from './cashier-link.repository.js';",
      }),
    ).toEqual([]);
    expect(
      flagged({
        path: 'services/gateway/src/merchants/merchant.service.ts',
        text: "import type { Kysely } from 'kysely';\nimport type { Database } from '../db/schema.js';",
      }),
    ).toEqual([]);
    // Within its own service, a relative import is fine; so is a service's declared export; tests compose
    // services as fixtures and may start another's main.
    expect(
      flagged({ path: 'services/payments/test/x.test.ts', text: "import { main } from '../src/main.js';" }),
    ).toEqual([]);
    expect(
      flagged({
        path: 'services/upstream-router/test/x.test.ts',
        text: "import { main } from '../../upstream-sandbox/src/main.js';",
      }),
    ).toEqual([]);
    expect(
      flagged({
        path: 'scripts/chaos/x.ts',
        text: "import { isAllowed } from '@agentpay/payments/pay-order-state-machine';",
      }),
    ).toEqual([]);
  });

  it('hold over the whole tree', () => {
    const sources = treeSources(ROOT);
    // The tree is really read: a broken listing would pass every rule.
    expect(sources.length).toBeGreaterThan(300);
    expect(sources.some((s) => s.path === 'packages/messaging/src/streams.ts')).toBe(true);
    const violations = [
      ...sources.flatMap((file) => checkFile(file)),
      ...TREE_RULES.flatMap((rule) => rule.check(sources)),
    ];
    expect(violations.map((v) => `${v.path}:${v.line} [${v.rule}] ${v.message}`)).toEqual([]);
    // The gateway's modules are really read, and none of them imports one that imports it back.
    expect(sources.some((s) => s.path === 'services/gateway/src/identity/index.ts')).toBe(true);
    expect(gatewayTwoWayPairs(sources)).toEqual([]);
  });
});
