import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkFile,
  grpcHandlersOnlyMap,
  noReachIntoAnotherService,
  oneOutboxWriter,
  RULES,
  type Rule,
  repositoriesOpenNoTransaction,
  type SourceFile,
  subjectsBuiltInMessaging,
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
    const violations = sources.flatMap((file) => checkFile(file));
    expect(violations.map((v) => `${v.path}:${v.line} [${v.rule}] ${v.message}`)).toEqual([]);
  });
});
