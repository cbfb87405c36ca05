import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as messaging from '@agentpay/messaging';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkArchitectureDoc, factsOf, type Tree, workingTree } from './architecture/doc-check.js';

// docs/architecture.md "How this page is checked": each check is first shown to catch a difference planted in
// a copy of the tree or of the page held in memory, then the page holds over the working tree.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

let tree: Tree;
let facts: ReturnType<typeof factsOf>;
// Parsing every service's sources takes seconds on a busy machine: once here, under the hook's longer timeout
// (each source is then read from the check's cache).
beforeAll(() => {
  tree = workingTree(ROOT);
  facts = factsOf(tree);
});

/** The tree with the directory `from` moved to `to`, as `git mv` would leave it. */
function moved(base: Tree, from: string, to: string): Tree {
  const rename = (f: string) => (f.startsWith(`${from}/`) ? to + f.slice(from.length) : f);
  const back = new Map(base.files.map((f) => [rename(f), f]));
  return {
    files: [...back.keys()],
    read: (file) => {
      const original = back.get(file);
      return original === undefined ? undefined : base.read(original);
    },
  };
}

/** The tree with one more file, or a file's text replaced. */
function planted(base: Tree, file: string, text: string): Tree {
  return {
    files: base.files.includes(file) ? base.files : [...base.files, file],
    read: (f) => (f === file ? text : base.read(f)),
  };
}

/** The doc with `from` replaced by `to`, failing the test if `from` is not in it (a plant that plants nothing). */
function edited(doc: string, from: string | RegExp, to: string): string {
  const next = doc.replace(from, to);
  if (next === doc) throw new Error(`the plant changed nothing: ${String(from)} is not in the doc`);
  return next;
}

describe('the check of docs/architecture.md', () => {
  it('reads the subjects streams.ts builds exactly as its functions build them at run time', () => {
    const subjects = facts.subjects;
    expect(subjects.length).toBeGreaterThanOrEqual(5);
    for (const { subject, fn, args } of subjects) {
      const build = (messaging as unknown as Record<string, (...a: string[]) => string>)[fn];
      expect(build, `@agentpay/messaging exports ${fn}`).toBeTypeOf('function');
      expect(build?.('<prefix>', ...args)).toBe(subject);
    }
  });

  it('is red when a service is renamed: the old name is named but gone, the new one exists but is not named', () => {
    const problems = checkArchitectureDoc(DOC, moved(tree, 'services/notifier', 'services/notifications'));
    expect(problems).toContain('the doc names the service notifier, which the tree does not have');
    expect(problems).toContain('the tree has the service notifications, which the doc does not name');
    // The events table and the paths into the old directory are caught as well.
    expect(problems).toContain('the events table names notifier, which is no service');
    expect(problems.some((p) => p.includes('services/notifier/src/admin/admin-api.ts'))).toBe(true);
  });

  it('is red when a gRPC service is renamed: the calls to it and who serves it no longer agree', () => {
    const problems = checkArchitectureDoc(DOC, moved(tree, 'services/ledger', 'services/books'));
    expect(problems).toContain('the doc names the service ledger, which the tree does not have');
    expect(problems).toContain(
      'the doc names the gRPC call transfers → ledger, which the tree does not have',
    );
    expect(problems).toContain('the tree has the gRPC call transfers → books, which the doc does not name');
    expect(problems).toContain('the doc says ledger serves agentpay.ledger.v1.LedgerService; it does not');
    expect(problems).toContain('books serves agentpay.ledger.v1.LedgerService, which the doc does not say');
  });

  it('is red when a package or an app is added that the doc does not name', () => {
    const withPackage = planted(tree, 'packages/limits/package.json', '{"name":"@agentpay/limits"}');
    expect(checkArchitectureDoc(DOC, withPackage)).toContain(
      'the tree has the package limits, which the doc does not name',
    );
    const withApp = planted(tree, 'apps/cashier/package.json', '{"name":"@agentpay/cashier"}');
    expect(checkArchitectureDoc(DOC, withApp)).toContain(
      'the tree has the app cashier, which the doc does not name',
    );
  });

  it('is red when the doc leaves out an event subject, or names one streams.ts does not build', () => {
    const without = edited(DOC, /^\| `<prefix>\.ledger\.order_settled`.*\n/m, '');
    expect(checkArchitectureDoc(without, tree)).toContain(
      'the tree has the event subject <prefix>.ledger.order_settled, which the doc does not name',
    );
    const invented = edited(DOC, '`<prefix>.notice.payout`', '`<prefix>.notice.refund`');
    const problems = checkArchitectureDoc(invented, tree);
    expect(problems).toContain(
      'the doc names the event subject <prefix>.notice.refund, which the tree does not have',
    );
    expect(problems).toContain(
      'the tree has the event subject <prefix>.notice.payout, which the doc does not name',
    );
  });

  it('is red when streams.ts builds a new subject the doc does not name', () => {
    const streams = 'packages/messaging/src/streams.ts';
    const more = `${tree.read(streams)}\nexport function refundSubject(prefix: string): string {\n  return \`\${prefix}.refund.status_changed\`;\n}\n`;
    expect(checkArchitectureDoc(DOC, planted(tree, streams, more))).toContain(
      'the tree has the event subject <prefix>.refund.status_changed, which the doc does not name',
    );
  });

  it('is red when a service starts calling another over gRPC without the doc saying so', () => {
    const file = 'services/notifier/src/ledger/ledger.client.ts';
    const client = [
      "import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';",
      'export function connectLedger(address: string, credentials: never) {',
      '  const protos = loadProtos();',
      '  const ledger = new protos.agentpay.ledger.v1.LedgerService(address, credentials, CLIENT_OPTIONS);',
      '  return (mchNo: string) => call(ledger, ledger.GetBalance, { mch_no: mchNo });',
      '}',
    ].join('\n');
    const problems = checkArchitectureDoc(DOC, planted(tree, file, client));
    expect(problems).toContain('the tree has the gRPC call notifier → ledger, which the doc does not name');
    expect(problems).toContain('notifier calls agentpay.ledger.v1.LedgerService, which the doc does not say');
  });

  it('is red when the doc lists an rpc its caller never makes, or one the proto does not declare', () => {
    const notMade = edited(DOC, /`Freeze`, `VoidFreeze`(?= *\|)/, '`Freeze`, `VoidFreeze`, `Adjust`');
    expect(checkArchitectureDoc(notMade, tree)).toContain(
      'the doc says transfers calls agentpay.ledger.v1.LedgerService.Adjust; its code never names it',
    );
    const undeclared = edited(DOC, /`Freeze`, `VoidFreeze`(?= *\|)/, '`Freeze`, `VoidFreeze`, `Unfreeze`');
    expect(checkArchitectureDoc(undeclared, tree)).toContain(
      'the doc names the rpc agentpay.ledger.v1.LedgerService.Unfreeze, which the proto does not declare',
    );
  });

  it('is red when the doc leaves out a call a caller makes, or a caller altogether', () => {
    const dropped = edited(DOC, /`Freeze`, `VoidFreeze`(?= *\|)/, '`Freeze`');
    expect(checkArchitectureDoc(dropped, tree)).toContain(
      'transfers calls agentpay.ledger.v1.LedgerService.VoidFreeze, which the doc does not list for it',
    );
    const noRow = edited(
      DOC,
      /^\| `agentpay\.ledger\.v1\.LedgerService` +\| `ledger` +\| `transfers` +\|.*\n/m,
      '',
    );
    const problems = checkArchitectureDoc(noRow, tree);
    expect(problems).toContain(
      'transfers calls agentpay.ledger.v1.LedgerService, which the doc does not say',
    );
    expect(problems).toContain(
      'the proto declares agentpay.ledger.v1.LedgerService.Freeze, which the doc names no caller of',
    );
  });

  it('is red when a table is missing, a retention job is not named, or a path or link leads nowhere', () => {
    const noLoops = edited(DOC, /\| Service +\| Loop +\|/, '| Service | Job |');
    expect(checkArchitectureDoc(noLoops, tree)).toContain(
      'the doc must have one table headed | Service | Loop | What it does | (it has 0)',
    );
    const noRetention = edited(DOC, /^\| `transfers` +\| retention .*\n/m, '');
    expect(checkArchitectureDoc(noRetention, tree)).toContain(
      'the tree has a retention job in the service transfers, which the doc does not name',
    );
    const badPath = edited(
      DOC,
      '`services/ledger/src/ledger.grpc.ts`',
      '`services/ledger/src/books.grpc.ts`',
    );
    expect(checkArchitectureDoc(badPath, tree)).toContain(
      'the doc names services/ledger/src/books.grpc.ts, which the tree does not have',
    );
    const badLink = edited(DOC, '[guarantees.md](guarantees.md)', '[guarantees.md](promises.md)');
    expect(checkArchitectureDoc(badLink, tree)).toContain(
      'the doc links to promises.md, which the tree does not have',
    );
  });

  it('is red when a service lacks a file of the frame the doc says every service has', () => {
    const withoutMigrate: Tree = {
      files: tree.files.filter((f) => f !== 'services/upstream-sandbox/src/migrate.ts'),
      read: (f) => tree.read(f),
    };
    expect(checkArchitectureDoc(DOC, withoutMigrate)).toContain(
      'the doc says every service has src/migrate.ts; upstream-sandbox has not',
    );
  });

  it('holds over the working tree: docs/architecture.md names everything there is and nothing that is not', () => {
    expect(checkArchitectureDoc(DOC, tree)).toEqual([]);
  });
});
