import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The check of docs/architecture.md against the tree (docs/architecture.md "How this page is checked"): the
// services, packages, apps, event subjects and gRPC calls it names are read from its tables, each known by
// its header, and compared both ways with what the tree holds. Pure functions over a Tree, so a test can
// run them over an altered tree or doc held in memory.

/** A tree of files: repository-relative paths and their text. */
export interface Tree {
  readonly files: readonly string[];
  read(file: string): string | undefined;
}

/** The working copy as git sees it: tracked files, and new files it does not ignore. */
export function workingTree(root: string): Tree {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = listed.split('\n').filter((f) => f && existsSync(path.join(root, f)));
  return {
    files,
    read(file) {
      try {
        return readFileSync(path.join(root, file), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** A subject the messaging package builds: its text with `<prefix>`, and the function and kinds that build it. */
export interface BuiltSubject {
  subject: string;
  fn: string;
  args: string[];
}

/** What the doc is compared with, all read from the tree. */
export interface Facts {
  services: Set<string>;
  packages: Set<string>;
  apps: Set<string>;
  /** The npm names of the workspaces (`@agentpay/wire`, …). */
  workspaceNames: Set<string>;
  subjects: BuiltSubject[];
  /** Full gRPC service name (`agentpay.ledger.v1.LedgerService`) → its rpcs. */
  grpcServices: Map<string, string[]>;
  /** gRPC service → the services whose running code registers it. */
  servedBy: Map<string, Set<string>>;
  /** Caller service → gRPC service it constructs a client of → the rpcs of it the caller's code names. */
  clients: Map<string, Map<string, Set<string>>>;
  /** Services with a retention job (`src/retention/retention.ts`). */
  retention: Set<string>;
}

const STREAMS = 'packages/messaging/src/streams.ts';

/** Workspaces of a kind: the directories under `dir` holding a package.json. */
function workspaces(tree: Tree, dir: string): Set<string> {
  const found = new Set<string>();
  for (const file of tree.files) {
    const m = new RegExp(`^${dir}/([^/]+)/package\\.json$`).exec(file);
    if (m?.[1]) found.add(m[1]);
  }
  return found;
}

/** The running code of a service: its src/ TypeScript, tests left out. */
function runningSources(tree: Tree, service: string): string[] {
  const prefix = `services/${service}/src/`;
  return tree.files.filter(
    (f) => f.startsWith(prefix) && f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'),
  );
}

function visit(node: ts.Node, f: (node: ts.Node) => void): void {
  f(node);
  node.forEachChild((child) => visit(child, f));
}

const GRPC_PATH = /agentpay\.(\w+)\.v1\.(\w+)$/;

/** What one source says about gRPC: the names that may be rpcs, the clients it builds, the services it serves. */
interface GrpcMentions {
  names: Set<string>;
  constructed: string[];
  served: string[];
}

// By text: a tree altered in memory shares nearly every file with the working tree, so each is parsed once.
const mentionsByText = new Map<string, GrpcMentions>();

function grpcMentions(file: string, text: string): GrpcMentions {
  const cached = mentionsByText.get(text);
  if (cached) return cached;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: GrpcMentions = { names: new Set(), constructed: [], served: [] };
  const pascal = /^[A-Z]\w*$/;
  visit(source, (node) => {
    if (ts.isPropertyAccessExpression(node)) {
      if (pascal.test(node.name.text)) found.names.add(node.name.text);
      const served = GRPC_PATH.exec(node.expression.getText(source));
      if (node.name.text === 'service' && served) found.served.push(`agentpay.${served[1]}.v1.${served[2]}`);
    } else if (ts.isStringLiteral(node) && pascal.test(node.text)) {
      found.names.add(node.text);
    } else if (ts.isNewExpression(node)) {
      let callee: ts.Expression = node.expression;
      while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
      const client = GRPC_PATH.exec(callee.getText(source));
      if (client) found.constructed.push(`agentpay.${client[1]}.v1.${client[2]}`);
    }
  });
  mentionsByText.set(text, found);
  return found;
}

/** The gRPC services of proto/**\/*.proto, with their rpcs. */
function protoServices(tree: Tree): Map<string, string[]> {
  const services = new Map<string, string[]>();
  for (const file of tree.files.filter((f) => f.startsWith('proto/') && f.endsWith('.proto'))) {
    const text = (tree.read(file) ?? '').replace(/\/\/.*$/gm, '');
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
    if (!pkg) continue;
    for (const m of text.matchAll(/\bservice\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
      const rpcs = [...(m[2] ?? '').matchAll(/\brpc\s+(\w+)\s*\(/g)].map((r) => r[1] as string);
      services.set(`${pkg}.${m[1]}`, rpcs);
    }
  }
  return services;
}

/** The string literal values of a local type alias (`type NoticeKind = 'payment' | 'payout'`). */
function literalsOf(source: ts.SourceFile, alias: string): string[] | undefined {
  let values: string[] | undefined;
  visit(source, (node) => {
    if (!ts.isTypeAliasDeclaration(node) || node.name.text !== alias) return;
    const members = ts.isUnionTypeNode(node.type) ? node.type.types : [node.type];
    const literals = members.map((t) =>
      ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : undefined,
    );
    if (literals.every((l): l is string => l !== undefined)) values = literals;
  });
  return values;
}

/**
 * Every subject the exported `…Subject(prefix, kind?): string` functions of streams.ts build, read from their
 * `return` template with `prefix` as `<prefix>` and the kind as each literal of its type. A function this
 * reading cannot follow is a problem rather than a silent gap.
 */
function builtSubjects(tree: Tree, problems: string[]): BuiltSubject[] {
  const text = tree.read(STREAMS);
  if (text === undefined) {
    problems.push(`${STREAMS} is missing: the event subjects cannot be read`);
    return [];
  }
  const source = ts.createSourceFile(STREAMS, text, ts.ScriptTarget.Latest, true);
  const subjects: BuiltSubject[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    const fn = statement.name.text;
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported || !fn.endsWith('Subject') || statement.type?.getText(source) !== 'string') continue;
    const [prefix, ...kinds] = statement.parameters;
    const ret = statement.body?.statements.find(ts.isReturnStatement)?.expression;
    const kindValues = kinds.map((p) =>
      p.type && ts.isTypeReferenceNode(p.type)
        ? literalsOf(source, p.type.typeName.getText(source))
        : undefined,
    );
    if (!prefix || !ret || kindValues.some((v) => v === undefined) || kinds.length > 1) {
      problems.push(
        `${STREAMS}: cannot read the subjects ${fn}() builds (expected (prefix, kind?) => a template)`,
      );
      continue;
    }
    const values = kinds.length === 0 ? [undefined] : (kindValues[0] as string[]);
    for (const kind of values) {
      const bound = new Map<string, string>([[prefix.name.getText(source), '<prefix>']]);
      if (kind !== undefined && kinds[0]) bound.set(kinds[0].name.getText(source), kind);
      const subject = evaluate(ret, bound);
      if (subject === undefined) {
        problems.push(`${STREAMS}: cannot read the subject ${fn}() returns`);
        break;
      }
      subjects.push({ subject, fn, args: kind === undefined ? [] : [kind] });
    }
  }
  return subjects;
}

function evaluate(expr: ts.Expression, bound: Map<string, string>): string | undefined {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (!ts.isTemplateExpression(expr)) return undefined;
  let out = expr.head.text;
  for (const span of expr.templateSpans) {
    const value = ts.isIdentifier(span.expression) ? bound.get(span.expression.text) : undefined;
    if (value === undefined) return undefined;
    out += value + span.literal.text;
  }
  return out;
}

/** Reads from the tree everything the doc is checked against; problems collects what could not be read. */
export function factsOf(tree: Tree, problems: string[] = []): Facts {
  const services = workspaces(tree, 'services');
  const workspaceNames = new Set<string>();
  for (const file of tree.files.filter((f) => /^(services|packages|apps)\/[^/]+\/package\.json$/.test(f))) {
    const name = (JSON.parse(tree.read(file) ?? '{}') as { name?: string }).name;
    if (name) workspaceNames.add(name);
  }
  const grpcServices = protoServices(tree);
  const servedBy = new Map<string, Set<string>>();
  const clients = new Map<string, Map<string, Set<string>>>();
  for (const service of services) {
    const constructed = new Set<string>();
    const named = new Set<string>();
    for (const file of runningSources(tree, service)) {
      const mentions = grpcMentions(file, tree.read(file) ?? '');
      for (const name of mentions.names) named.add(name);
      for (const grpc of mentions.constructed) constructed.add(grpc);
      for (const grpc of mentions.served) servedBy.set(grpc, (servedBy.get(grpc) ?? new Set()).add(service));
    }
    const byService = new Map<string, Set<string>>();
    for (const grpc of constructed) {
      byService.set(grpc, new Set((grpcServices.get(grpc) ?? []).filter((rpc) => named.has(rpc))));
    }
    if (byService.size > 0) clients.set(service, byService);
  }
  const retention = new Set(
    [...services].filter((s) => tree.files.includes(`services/${s}/src/retention/retention.ts`)),
  );
  return {
    services,
    packages: workspaces(tree, 'packages'),
    apps: workspaces(tree, 'apps'),
    workspaceNames,
    subjects: builtSubjects(tree, problems),
    grpcServices,
    servedBy,
    clients,
    retention,
  };
}

interface Table {
  header: string[];
  rows: string[][];
  line: number;
}

/** The doc's Markdown tables, each with its header cells and rows of cells. */
export function tablesOf(doc: string): Table[] {
  const tables: Table[] = [];
  const lines = doc.split('\n');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]?.trim().startsWith('|') || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? '')) continue;
    const table: Table = { header: cells(lines[i] as string), rows: [], line: i + 1 };
    i += 2;
    while (lines[i]?.trim().startsWith('|')) table.rows.push(cells(lines[i++] as string));
    tables.push(table);
  }
  return tables;
}

/** The names in backticks of a cell, leaving out what stands in parentheses (durable names, notes). */
export function codeNames(cell: string | undefined): string[] {
  const outside = (cell ?? '').replace(/\([^)]*\)/g, '');
  return [...outside.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/** The tables the check reads, by their exact header. */
export const TABLES = {
  services: ['Service', 'Serves', 'What it does'],
  packages: ['Package', 'What it holds'],
  apps: ['App', 'What it is'],
  calls: ['Caller', 'Callee', 'Over', 'For'],
  grpc: ['gRPC service', 'Served by', 'Caller', 'Calls'],
  events: ['Subject', 'Payload', 'Producer', 'Consumers (durable)'],
  loops: ['Service', 'Loop', 'What it does'],
} as const;

function missingBothWays(what: string, named: Set<string>, actual: Set<string>, problems: string[]): void {
  for (const n of named)
    if (!actual.has(n)) problems.push(`the doc names ${what} ${n}, which the tree does not have`);
  for (const a of actual)
    if (!named.has(a)) problems.push(`the tree has ${what} ${a}, which the doc does not name`);
}

/** Everything in `doc` (docs/architecture.md) that the tree contradicts or that the doc leaves out. */
export function checkArchitectureDoc(doc: string, tree: Tree): string[] {
  const problems: string[] = [];
  const facts = factsOf(tree, problems);
  const tables = tablesOf(doc);
  const table = (key: keyof typeof TABLES): Table | undefined => {
    const wanted = TABLES[key].join(' | ');
    const found = tables.filter((t) => t.header.join(' | ') === wanted);
    if (found.length !== 1) {
      problems.push(`the doc must have one table headed | ${wanted} | (it has ${found.length})`);
      return undefined;
    }
    return found[0];
  };
  const firstNames = (t: Table | undefined) =>
    new Set(t?.rows.flatMap((r) => codeNames(r[0]).slice(0, 1)) ?? []);
  const everyWorkspace = new Set([...facts.services, ...facts.packages, ...facts.apps]);

  missingBothWays('the service', firstNames(table('services')), facts.services, problems);
  missingBothWays('the package', firstNames(table('packages')), facts.packages, problems);
  missingBothWays('the app', firstNames(table('apps')), facts.apps, problems);

  // Who calls whom: names in backticks are the tree's; the gRPC rows are exactly the clients the code builds.
  const grpcOf = (service: string) =>
    [...facts.servedBy].filter(([, by]) => by.has(service)).map(([grpc]) => grpc);
  const calls = table('calls');
  const grpcPairs = new Set<string>();
  for (const row of calls?.rows ?? []) {
    for (const name of [...codeNames(row[0]), ...codeNames(row[1])]) {
      if (!everyWorkspace.has(name))
        problems.push(`the calls table names ${name}, which is no service, package or app`);
    }
    if (row[2] === 'gRPC') {
      for (const caller of codeNames(row[0]))
        for (const callee of codeNames(row[1])) grpcPairs.add(`${caller} → ${callee}`);
    }
  }
  const builtPairs = new Set<string>();
  for (const [caller, byService] of facts.clients) {
    for (const grpc of byService.keys())
      for (const callee of facts.servedBy.get(grpc) ?? []) builtPairs.add(`${caller} → ${callee}`);
  }
  missingBothWays('the gRPC call', grpcPairs, builtPairs, problems);

  // Each rpc: served by whom, called by whom.
  const grpcTable = table('grpc');
  const namedRpcs = new Map<string, Set<string>>();
  const namedClients = new Set<string>();
  for (const row of grpcTable?.rows ?? []) {
    const [grpc] = codeNames(row[0]);
    const servedBy = new Set(codeNames(row[1]));
    const [caller] = codeNames(row[2]);
    const rpcs = codeNames(row[3]);
    if (!grpc || !caller) {
      problems.push(`a row of the gRPC table names no gRPC service or caller: | ${row.join(' | ')} |`);
      continue;
    }
    const known = facts.grpcServices.get(grpc);
    if (!known) {
      problems.push(`the doc names the gRPC service ${grpc}, which no proto declares`);
      continue;
    }
    const serving = facts.servedBy.get(grpc) ?? new Set<string>();
    for (const s of servedBy)
      if (!serving.has(s)) problems.push(`the doc says ${s} serves ${grpc}; it does not`);
    for (const s of serving)
      if (!servedBy.has(s)) problems.push(`${s} serves ${grpc}, which the doc does not say`);
    namedClients.add(`${caller} calls ${grpc}`);
    const built = facts.clients.get(caller)?.get(grpc);
    if (!built) problems.push(`the doc says ${caller} calls ${grpc}, but ${caller} builds no client of it`);
    for (const rpc of rpcs) {
      if (!known.includes(rpc))
        problems.push(`the doc names the rpc ${grpc}.${rpc}, which the proto does not declare`);
      else if (built && !built.has(rpc))
        problems.push(`the doc says ${caller} calls ${grpc}.${rpc}; its code never names it`);
      namedRpcs.set(grpc, (namedRpcs.get(grpc) ?? new Set()).add(rpc));
    }
    for (const rpc of built ?? []) {
      if (!rpcs.includes(rpc))
        problems.push(`${caller} calls ${grpc}.${rpc}, which the doc does not list for it`);
    }
  }
  for (const [caller, byService] of facts.clients) {
    for (const grpc of byService.keys()) {
      if (!namedClients.has(`${caller} calls ${grpc}`))
        problems.push(`${caller} calls ${grpc}, which the doc does not say`);
    }
  }
  for (const [grpc, rpcs] of facts.grpcServices) {
    for (const rpc of rpcs) {
      if (!namedRpcs.get(grpc)?.has(rpc))
        problems.push(`the proto declares ${grpc}.${rpc}, which the doc names no caller of`);
    }
  }
  for (const service of facts.services) {
    if (
      grpcOf(service).length > 0 &&
      !(grpcTable?.rows ?? []).some((r) => codeNames(r[1]).includes(service))
    ) {
      problems.push(`${service} serves gRPC, which the doc's gRPC table does not say`);
    }
  }

  // Events: the subjects are exactly those streams.ts builds; producers and consumers are services.
  const events = table('events');
  const namedSubjects = new Set(events?.rows.flatMap((r) => codeNames(r[0]).slice(0, 1)) ?? []);
  missingBothWays(
    'the event subject',
    namedSubjects,
    new Set(facts.subjects.map((s) => s.subject)),
    problems,
  );
  for (const row of events?.rows ?? []) {
    for (const name of [...codeNames(row[2]), ...codeNames(row[3])]) {
      if (!facts.services.has(name)) problems.push(`the events table names ${name}, which is no service`);
    }
  }

  // Background loops: every named service exists, and every retention job is named.
  const loops = table('loops');
  const namedRetention = new Set<string>();
  for (const row of loops?.rows ?? []) {
    for (const name of codeNames(row[0])) {
      if (!facts.services.has(name)) problems.push(`the loops table names ${name}, which is no service`);
      else if (/\bretention\b/.test(row[1] ?? '')) namedRetention.add(name);
    }
  }
  missingBothWays('a retention job in the service', namedRetention, facts.retention, problems);

  // The frame every service shares: the first block of "The shape of a service", its plain `src/` paths.
  const shape = /^## The shape of a service\n[\s\S]*?```\n([\s\S]*?)```/m.exec(doc)?.[1];
  if (shape === undefined) problems.push('the doc has no code block under "## The shape of a service"');
  const frame = [...(shape ?? '').matchAll(/^(src\/[^\s<]+)/gm)].map((m) => m[1] as string);
  if (shape !== undefined && frame.length === 0)
    problems.push('the frame of "The shape of a service" names no src/ path');
  for (const service of facts.services) {
    for (const p of frame) {
      const full = `services/${service}/${p.replace(/\/$/, '')}`;
      if (!tree.files.includes(full) && !tree.files.some((f) => f.startsWith(`${full}/`))) {
        problems.push(`the doc says every service has ${p}; ${service} has not`);
      }
    }
  }

  // Anywhere in the doc: a path into the tree exists, and an @agentpay/ name is a workspace.
  for (const m of doc.matchAll(/`([^`\s]+)`/g)) {
    const code = m[1] as string;
    const root = /^(services|packages|apps|proto|docs|test|scripts|bench|deploy)\/[^<>*{}]*$/.exec(code);
    if (root) {
      const p = code.replace(/\/$/, '');
      if (!tree.files.includes(p) && !tree.files.some((f) => f.startsWith(`${p}/`))) {
        problems.push(`the doc names ${code}, which the tree does not have`);
      }
    }
    for (const name of code.matchAll(/@agentpay\/[a-z-]+/g)) {
      if (!facts.workspaceNames.has(name[0]))
        problems.push(`the doc names ${name[0]}, which is no workspace`);
    }
  }
  for (const m of doc.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
    const target = m[1] as string;
    if (/^[a-z]+:/.test(target)) continue;
    const p = path.posix.normalize(path.posix.join('docs', target));
    if (!tree.files.includes(p) && !tree.files.some((f) => f.startsWith(`${p}/`))) {
      problems.push(`the doc links to ${target}, which the tree does not have`);
    }
  }
  return [...new Set(problems)];
}
