import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The rules of docs/architecture.md as checks over source text. Each rule is a pure function of a file's
// path (relative to the repository root, with forward slashes) and its text, so a test can plant a
// violation in memory and watch the rule catch it, then run it over the whole tree.

export interface SourceFile {
  /** Relative to the repository root, forward slashes. */
  path: string;
  text: string;
}

export interface Violation {
  rule: string;
  path: string;
  line: number;
  message: string;
}

export interface Rule {
  name: string;
  /** What docs/architecture.md says, in one line. */
  says: string;
  check(file: SourceFile): Violation[];
}

const SERVICE_FILE = /^services\/([^/]+)\//;
const SERVICE_SRC = /^services\/([^/]+)\/src\//;
/** The services, by their folder (and package) names. */
const SERVICE_NAMES = readdirSync(new URL('../../services/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function isTest(file: string): boolean {
  return (
    /\.test\.ts$/.test(file) || /^(services|packages)\/[^/]+\/test\//.test(file) || file.startsWith('test/')
  );
}

function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** Every call `<anything>.<method>(…)` whose arguments pass `args`, with its line. */
function methodCalls(
  source: ts.SourceFile,
  method: string,
  args: (list: ts.NodeArray<ts.Expression>) => boolean,
): number[] {
  const lines: number[] = [];
  walk(source, (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === method &&
      args(node.arguments)
    ) {
      lines.push(lineOf(source, node));
    }
  });
  return lines;
}

/** Every module specifier: import and export declarations, `import()` and `import type`. */
function importsOf(source: ts.SourceFile): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  walk(source, (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, line: lineOf(source, node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, line: lineOf(source, node) });
    }
  });
  return found;
}

/** The text of every string and template literal (a template's substitutions read as `${}`), comments excluded. */
function literalsOf(source: ts.SourceFile): { text: string; line: number; node: ts.Node }[] {
  const found: { text: string; line: number; node: ts.Node }[] = [];
  walk(source, (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      // A module specifier is not a literal of the program.
      if (node.parent && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent))) return;
      found.push({ text: node.text, line: lineOf(source, node), node });
    } else if (ts.isTemplateExpression(node)) {
      const text = node.head.text + node.templateSpans.map((s) => `\${}${s.literal.text}`).join('');
      found.push({ text, line: lineOf(source, node), node });
    }
  });
  return found;
}

/** The path an import names, relative to the repository root, for relative specifiers; else undefined. */
function resolved(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
}

export const grpcHandlersOnlyMap: Rule = {
  name: 'gRPC handlers only map',
  says: 'a `*.grpc.ts` maps proto to domain and back and calls use cases; it never reads a repository',
  check(file) {
    if (!/\.grpc\.ts$/.test(file.path) || isTest(file.path)) return [];
    const source = parse(file);
    return importsOf(source)
      .filter(({ specifier }) => /\.repository(\.js|\.ts)?$/.test(specifier))
      .map(({ specifier, line }) => ({
        rule: this.name,
        path: file.path,
        line,
        message: `imports ${specifier}: call a use case (*.service.ts) instead`,
      }));
  },
};

export const repositoriesOpenNoTransaction: Rule = {
  name: 'repositories never open a transaction',
  says: 'a `*.repository.ts` takes the caller’s Kysely or Transaction; the use case owns the transaction',
  check(file) {
    if (!/\.repository\.ts$/.test(file.path) || isTest(file.path)) return [];
    return methodCalls(parse(file), 'transaction', (args) => args.length === 0).map((line) => ({
      rule: this.name,
      path: file.path,
      line,
      message: 'calls transaction(): take a Transaction<Database> and let the use case open it',
    }));
  },
};

/** An event subject, or a piece of one, written out: `<prefix>.pay.status_changed`, `.notice.payout`, … */
const SUBJECT_TEXT = /\.(?:status_changed|order_settled)\b|(?:^|\.)notice\.(?:payment|payout|\*|>)(?![\w])/;

export const subjectsBuiltInMessaging: Rule = {
  name: 'event subjects are built in packages/messaging',
  says: 'every subject (and consumer filter) comes from a builder in packages/messaging/src/streams.ts',
  check(file) {
    if (isTest(file.path) || file.path.startsWith('packages/messaging/src/')) return [];
    if (file.path.startsWith('packages/proto/src/generated/')) return [];
    const source = parse(file);
    return literalsOf(source)
      .filter(({ text }) => SUBJECT_TEXT.test(text))
      .map(({ text, line }) => ({
        rule: this.name,
        path: file.path,
        line,
        message: `writes a subject by hand (${JSON.stringify(text)}): use the builder in @agentpay/messaging`,
      }));
  },
};

export const oneOutboxWriter: Rule = {
  name: 'one outbox writer',
  says: 'every event goes into an outbox through enqueueEvent/enqueueEvents (packages/messaging), traceparent included',
  check(file) {
    if (isTest(file.path) || !SERVICE_SRC.test(file.path)) return [];
    const source = parse(file);
    const found: Violation[] = methodCalls(source, 'insertInto', ([table]) =>
      Boolean(table && ts.isStringLiteralLike(table) && table.text === 'outbox'),
    ).map((line) => ({
      rule: this.name,
      path: file.path,
      line,
      message: "insertInto('outbox'): write events with enqueueEvent/enqueueEvents",
    }));
    for (const { text, line } of literalsOf(source)) {
      if (/\binsert\s+into\s+outbox\b/i.test(text)) {
        found.push({
          rule: this.name,
          path: file.path,
          line,
          message: 'inserts into outbox in SQL: write events with enqueueEvent/enqueueEvents',
        });
      }
    }
    walk(source, (node) => {
      if (ts.isImportSpecifier(node) && (node.propertyName ?? node.name).text === 'enqueueOutbox') {
        found.push({
          rule: this.name,
          path: file.path,
          line: lineOf(source, node),
          message: 'enqueueOutbox writes no traceparent: use enqueueEvent/enqueueEvents',
        });
      }
    });
    return found;
  },
};

export const noReachIntoAnotherService: Rule = {
  name: 'no reaching into another service',
  says: 'a service, the bench and the fault run never import another service’s src/; packages never import a service',
  check(file) {
    // Tests compose services as fixtures (start another's main); the rule is about running code.
    if (isTest(file.path)) return [];
    const source = parse(file);
    const own = SERVICE_FILE.exec(file.path)?.[1];
    const inPackage = file.path.startsWith('packages/');
    const tool = file.path.startsWith('bench/') || file.path.startsWith('scripts/chaos/');
    if (!own && !inPackage && !tool) return [];
    const found: Violation[] = [];
    for (const { specifier, line } of importsOf(source)) {
      const target = resolved(file.path, specifier);
      const service = target && SERVICE_SRC.exec(`${target}/`)?.[1];
      const pkg = /^@agentpay\/([^/]+)/.exec(specifier)?.[1];
      if (service && service !== own) {
        found.push({
          rule: this.name,
          path: file.path,
          line,
          message: `imports ${specifier}, inside services/${service}/src: use what that service exports (package.json "exports") or its gRPC API`,
        });
      } else if (inPackage && (target?.startsWith('services/') || (pkg && SERVICE_NAMES.includes(pkg)))) {
        found.push({
          rule: this.name,
          path: file.path,
          line,
          message: `imports ${specifier}: shared code never imports a service`,
        });
      }
    }
    return found;
  },
};

export const RULES: readonly Rule[] = [
  grpcHandlersOnlyMap,
  repositoriesOpenNoTransaction,
  subjectsBuiltInMessaging,
  oneOutboxWriter,
  noReachIntoAnotherService,
];

export function checkFile(file: SourceFile, rules: readonly Rule[] = RULES): Violation[] {
  return rules.flatMap((rule) => rule.check(file));
}

/** The TypeScript sources of the tree as they are in the working copy: tracked, and new files git does not ignore. */
export function treeSources(root: string): SourceFile[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.ts'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const files: SourceFile[] = [];
  for (const rel of listed.split('\n')) {
    if (!rel || rel.endsWith('.d.ts') || rel.includes('node_modules/')) continue;
    if (rel.startsWith('packages/proto/src/generated/')) continue;
    let text: string;
    try {
      text = readFileSync(path.join(root, rel), 'utf8');
    } catch {
      continue; // deleted in the working copy, not yet in the index
    }
    files.push({ path: rel, text });
  }
  return files;
}
