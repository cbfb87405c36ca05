// `npm run docs:config`: writes each service's configuration table into its README, between the markers
// below, from its zod environment schema (services/<name>/src/config.ts). The text of a row is the `/** */`
// comment above the key (shared keys such as baseEnv's are read where they are declared, in
// packages/config), the default is what the schema itself gives for an absent variable: comment and
// default live once, in the code. scripts/config-docs.test.ts fails while a README differs from this.
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BEGIN_MARKER =
  '<!-- config-table:begin (written by `npm run docs:config` from src/config.ts: edit the comments there) -->';
export const END_MARKER = '<!-- config-table:end -->';

/** One key of a schema's object, in source order, with the text of its doc comment. */
export interface DocumentedKey {
  name: string;
  doc: string;
}

/** One row of a configuration table. */
export interface ConfigRow {
  name: string;
  default: string;
  doc: string;
}

/** Services with an environment schema: every services/<name>/src/config.ts. */
export function configuredServices(root = REPO_ROOT): string[] {
  return readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => {
      try {
        readFileSync(join(root, 'services', name, 'src', 'config.ts'));
        return true;
      } catch {
        return false;
      }
    })
    .sort();
}

function sourceOf(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The text of the `/** ... *\/` comment right above `node`, on one line; '' when there is none. */
function docComment(node: ts.Node, source: ts.SourceFile): string {
  const text = source.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (!last || last.kind !== ts.SyntaxKind.MultiLineCommentTrivia) return '';
  const raw = text.slice(last.pos, last.end);
  if (!raw.startsWith('/**')) return '';
  return raw
    .slice(3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
}

const moduleOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
};

/** The object literal a spread identifier names: declared in the same file or imported from another. */
function resolveSpread(
  name: string,
  source: ts.SourceFile,
): { object: ts.ObjectLiteralExpression; source: ts.SourceFile } {
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.name.text === name &&
          declaration.initializer &&
          ts.isObjectLiteralExpression(declaration.initializer)
        )
          return { object: declaration.initializer, source };
      }
    }
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings)
    ) {
      const element = statement.importClause.namedBindings.elements.find((e) => e.name.text === name);
      if (!element) continue;
      const resolved = ts.resolveModuleName(
        statement.moduleSpecifier.text,
        source.fileName,
        moduleOptions,
        ts.sys,
      ).resolvedModule;
      if (!resolved) throw new Error(`${source.fileName}: cannot resolve ${statement.moduleSpecifier.text}`);
      return resolveSpread((element.propertyName ?? element.name).text, sourceOf(resolved.resolvedFileName));
    }
  }
  throw new Error(`${source.fileName}: ...${name} is not an object literal declared here or imported`);
}

function keysOf(object: ts.ObjectLiteralExpression, source: ts.SourceFile): DocumentedKey[] {
  return object.properties.flatMap((property): DocumentedKey[] => {
    if (ts.isSpreadAssignment(property)) {
      if (!ts.isIdentifier(property.expression))
        throw new Error(`${source.fileName}: spread of something other than a name`);
      const spread = resolveSpread(property.expression.text, source);
      return keysOf(spread.object, spread.source);
    }
    if (
      ts.isPropertyAssignment(property) &&
      (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
    )
      return [{ name: property.name.text, doc: docComment(property, source) }];
    throw new Error(`${source.fileName}: unexpected ${ts.SyntaxKind[property.kind]} in the schema object`);
  });
}

/**
 * The exported schema of a config file: the name it is exported under and its keys in source order, each
 * with its doc comment. The schema is the first `z.object({...})` inside an exported `const`.
 */
export function readSchemaSource(file: string): { exportName: string; keys: DocumentedKey[] } {
  const source = sourceOf(file);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      let found: ts.ObjectLiteralExpression | undefined;
      const visit = (node: ts.Node): void => {
        if (found) return;
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          node.expression.name.text === 'object' &&
          ts.isIdentifier(node.expression.expression) &&
          node.expression.expression.text === 'z' &&
          node.arguments[0] &&
          ts.isObjectLiteralExpression(node.arguments[0])
        ) {
          found = node.arguments[0];
          return;
        }
        ts.forEachChild(node, visit);
      };
      visit(declaration.initializer);
      if (found) return { exportName: declaration.name.text, keys: keysOf(found, source) };
    }
  }
  throw new Error(`${file}: no exported const built from z.object({...})`);
}

interface ParseableSchema {
  safeParse(input: unknown): { success: boolean; data?: unknown };
}

/** The object schema under a transform or pipe (zod v4: `.in`), whose shape holds one schema per key. */
function shapeOf(schema: unknown): Record<string, ParseableSchema> {
  let current = schema as { shape?: Record<string, ParseableSchema>; in?: unknown };
  for (let depth = 0; depth < 10 && current; depth++) {
    if (current.shape) return current.shape;
    current = current.in as typeof current;
  }
  throw new Error('not a zod object schema (or a transform of one)');
}

/** How a default reads in a table: the value in code style, `unset` when the schema has none. */
export function formatDefault(value: unknown): string {
  if (value === undefined) return 'unset';
  // A list parsed from a comma-separated variable reads as the variable would be written.
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : `\`${value.join(',')}\``;
  if (value === '') return 'empty';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return `\`${String(value)}\``;
  return `\`${JSON.stringify(value)}\``;
}

/** The rows of a service's table: every key of its schema, its default as the schema gives it, its comment. */
export async function configRows(service: string, root = REPO_ROOT): Promise<ConfigRow[]> {
  const file = join(root, 'services', service, 'src', 'config.ts');
  const { exportName, keys } = readSchemaSource(file);
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (!module[exportName]) throw new Error(`${file}: ${exportName} is not exported at run time`);
  const shape = shapeOf(module[exportName]);
  const missing = Object.keys(shape).filter((key) => !keys.some((k) => k.name === key));
  if (missing.length) throw new Error(`${file}: keys the source reading missed: ${missing.join(', ')}`);
  const undocumented = keys.filter((k) => !k.doc).map((k) => k.name);
  if (undocumented.length)
    throw new Error(
      `${file}: every variable needs a /** */ comment saying what it does: ${undocumented.join(', ')}`,
    );
  return keys.map(({ name, doc }) => {
    const absent = shape[name]!.safeParse(undefined);
    if (!absent.success) return { name, doc, default: 'required' };
    return { name, doc: withoutStatedDefault(doc, absent.data), default: formatDefault(absent.data) };
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The comment without the clause stating the default, when it states exactly the value of the Default
 * column ("Merchant API port; default 8080." reads "Merchant API port."); any other wording is kept.
 */
export function withoutStatedDefault(doc: string, value: unknown): string {
  if (value === undefined || value === '') return doc;
  const stated = `\`?${escapeRegExp(String(value))}\`?`;
  const end = '(?=[;,]|\\.(?!\\w)|$)';
  return doc
    .replace(new RegExp(` \\(default ${stated}\\)`, 'i'), '')
    .replace(new RegExp(`[;,] default ${stated}${end}`, 'i'), '')
    .replace(new RegExp(`\\. Default ${stated}${end}`), '')
    .replace(new RegExp(`^Default ${stated}\\.\\s*`), '');
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** A Markdown table of the rows, aligned as the formatter (biome) aligns tables. */
export function renderTable(rows: ConfigRow[]): string {
  const table = [
    ['Variable', 'Default', 'What it does'],
    ...rows.map((r) => [`\`${r.name}\``, cell(r.default), cell(r.doc)]),
  ];
  const widths = [0, 1, 2].map((c) => Math.max(3, ...table.map((r) => [...r[c]!].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' | ')} |`;
  return [line(table[0]!), line(widths.map((w) => '-'.repeat(w))), ...table.slice(1).map(line)].join('\n');
}

/** `readme` with the text between the markers replaced by `table`; throws when the markers are missing. */
export function replaceTable(readme: string, table: string, name = 'README'): string {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (begin < 0 || end < begin)
    throw new Error(
      `${name}: no ${BEGIN_MARKER} ... ${END_MARKER} pair to write the configuration table into`,
    );
  return `${readme.slice(0, begin + BEGIN_MARKER.length)}\n\n${table}\n\n${readme.slice(end)}`;
}

/** The README of `service` as the generator writes it, beside the one on disk. */
export async function renderReadme(
  service: string,
  root = REPO_ROOT,
): Promise<{ path: string; current: string; expected: string }> {
  const path = join(root, 'services', service, 'README.md');
  const current = readFileSync(path, 'utf8');
  const expected = replaceTable(current, renderTable(await configRows(service, root)), relative(root, path));
  return { path, current, expected };
}

async function main(): Promise<void> {
  for (const service of configuredServices()) {
    const { path, current, expected } = await renderReadme(service);
    if (current === expected) continue;
    writeFileSync(path, expected);
    process.stdout.write(`wrote the configuration table of ${relative(REPO_ROOT, path)}\n`);
  }
}

const entry = process.argv[1];
if (entry && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))) {
  main().then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`docs:config: ${err.message}\n`);
      process.exit(1);
    },
  );
}
