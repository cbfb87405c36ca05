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

const GATEWAY_SRC = 'services/gateway/src/';
/** Folders of the gateway every module may use by path; they import no module themselves. */
const GATEWAY_LIBRARIES: ReadonlySet<string> = new Set(['shared', 'db']);

/** The gateway module (its top-level folder under src/) a path lies in; undefined for src/'s own files. */
function gatewayModuleOf(file: string): string | undefined {
  if (!file.startsWith(GATEWAY_SRC)) return undefined;
  const rest = file.slice(GATEWAY_SRC.length).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}

/** A module's entry: `<module>/index.js` (or `.ts`, or without extension). */
function isModuleIndex(target: string, module: string): boolean {
  return /^index(\.js|\.ts)?$/.test(target.slice(`${GATEWAY_SRC}${module}/`.length));
}

export const gatewayModulesMeetThroughIndex: Rule = {
  name: 'gateway modules meet through their index',
  says: 'a gateway module imports another only through its `index.ts`; shared/ and db/ import no module; no module imports the composition root',
  check(file) {
    if (!file.path.startsWith(GATEWAY_SRC) || isTest(file.path)) return [];
    const own = gatewayModuleOf(file.path);
    const found: Violation[] = [];
    for (const { specifier, line } of importsOf(parse(file))) {
      const target = resolved(file.path, specifier);
      if (!target?.startsWith(GATEWAY_SRC)) continue;
      const other = gatewayModuleOf(target);
      if (other === own) continue;
      const problem =
        other === undefined
          ? `imports ${specifier}, a file of the composition root: main.ts passes a module what it needs`
          : own !== undefined && GATEWAY_LIBRARIES.has(own) && !GATEWAY_LIBRARIES.has(other)
            ? `imports ${specifier}: ${own}/ serves every module and imports none`
            : !GATEWAY_LIBRARIES.has(other) && !isModuleIndex(target, other)
              ? `imports ${specifier}, inside the ${other} module: import what ${other}/index.ts exports`
              : undefined;
      if (problem) found.push({ rule: this.name, path: file.path, line, message: problem });
    }
    return found;
  },
};

export const routeHandlersUseTheirRepository: Rule = {
  name: 'gateway route handlers reach a database only through their module',
  says: "a gateway `*.routes.ts` never imports kysely, @agentpay/db or db/, nor another module's repository",
  check(file) {
    if (!file.path.startsWith(GATEWAY_SRC) || !/\.routes\.ts$/.test(file.path) || isTest(file.path))
      return [];
    const own = gatewayModuleOf(file.path);
    const found: Violation[] = [];
    for (const { specifier, line } of importsOf(parse(file))) {
      const target = resolved(file.path, specifier);
      const problem =
        specifier === 'kysely' || specifier === '@agentpay/db'
          ? `imports ${specifier}: take the module's repository (or service) as a dependency`
          : target && gatewayModuleOf(target) === 'db'
            ? `imports ${specifier}: the store's schema is for repositories; take the module's repository as a dependency`
            : target && /\.repository(\.js|\.ts)?$/.test(target) && gatewayModuleOf(target) !== own
              ? `imports ${specifier}, another module's repository: call what that module's index.ts exports`
              : undefined;
      if (problem) found.push({ rule: this.name, path: file.path, line, message: problem });
    }
    return found;
  },
};

/** A check over the whole tree at once (a property of how files relate, not of one file). */
export interface TreeRule {
  name: string;
  says: string;
  check(files: readonly SourceFile[]): Violation[];
}

/**
 * The imports between the gateway's modules (top-level folders of services/gateway/src; its own files at
 * src/ are the composition root and count for none), as `from -> to` with the first import that makes each.
 */
export function gatewayModuleEdges(
  files: readonly SourceFile[],
): Map<string, { path: string; line: number }> {
  const edges = new Map<string, { path: string; line: number }>();
  for (const file of files) {
    const from = gatewayModuleOf(file.path);
    if (from === undefined || isTest(file.path) || file.path.includes('/generated/')) continue;
    for (const { specifier, line } of importsOf(parse(file))) {
      const target = resolved(file.path, specifier);
      const to = target && gatewayModuleOf(target);
      if (to === undefined || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, { path: file.path, line });
    }
  }
  return edges;
}

/** The pairs of gateway modules that import each other, `a <-> b` with a < b. */
export function gatewayTwoWayPairs(files: readonly SourceFile[]): string[] {
  const edges = gatewayModuleEdges(files);
  return [...edges.keys()]
    .map((edge) => edge.split(' -> ') as [string, string])
    .filter(([a, b]) => a < b && edges.has(`${b} -> ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`);
}

export const gatewayModulesWithoutCycles: TreeRule = {
  name: 'no cycle among gateway modules',
  says: 'the modules of services/gateway/src import each other one way: no two of them, and no ring of them, import each other',
  check(files) {
    const edges = gatewayModuleEdges(files);
    const next = new Map<string, string[]>();
    for (const edge of edges.keys()) {
      const [from, to] = edge.split(' -> ') as [string, string];
      next.set(from, [...(next.get(from) ?? []), to]);
    }
    // Tarjan's strongly connected components: every component of more than one module is a cycle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const cycles: string[][] = [];
    const visit = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node) as number);
      stack.push(node);
      for (const to of next.get(node) ?? []) {
        if (!index.has(to)) {
          visit(to);
          low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
        } else if (stack.includes(to)) {
          low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
        }
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          component.push(member);
        } while (member !== node);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
    return cycles.map((modules) => {
      const inside = [...edges].filter(([edge]) => {
        const [from, to] = edge.split(' -> ');
        return modules.includes(from as string) && modules.includes(to as string);
      });
      const at = inside[0]?.[1] ?? { path: GATEWAY_SRC, line: 1 };
      return {
        rule: this.name,
        path: at.path,
        line: at.line,
        message: `modules ${modules.join(', ')} import each other (${inside.map(([e]) => e).join('; ')}): one of them passes the other what it needs through main.ts, or the shared part moves to shared/`,
      };
    });
  },
};

export const TREE_RULES: readonly TreeRule[] = [gatewayModulesWithoutCycles];

export const RULES: readonly Rule[] = [
  grpcHandlersOnlyMap,
  repositoriesOpenNoTransaction,
  subjectsBuiltInMessaging,
  oneOutboxWriter,
  noReachIntoAnotherService,
  gatewayModulesMeetThroughIndex,
  routeHandlersUseTheirRepository,
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
