// `npm run docs:permissions`: writes "Who may call what" into services/gateway/README.md, between the
// markers below, from the permission tables (services/gateway/src/permissions.ts, put together from each
// module's *.permissions.ts): the tables are the authorisation, the README only shows them.
// scripts/permissions-docs.test.ts fails while they differ.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MERCHANT_ROLES, OPERATOR_ROLES, type Permission } from '../services/gateway/src/identity/index.js';
import { ADMIN_PERMISSIONS, DASHBOARD_PERMISSIONS } from '../services/gateway/src/permissions.js';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const README = join(REPO_ROOT, 'services/gateway/README.md');
export const BEGIN_MARKER =
  '<!-- permissions-table:begin (written by `npm run docs:permissions` from src/permissions.ts) -->';
export const END_MARKER = '<!-- permissions-table:end -->';

function who(p: Permission, role: string): string {
  if (p.allow === 'public') return 'anyone';
  if (p.allow === 'signedIn') return 'own';
  return p.allow.includes(role) ? 'yes' : '';
}

function table(permissions: readonly Permission[], roles: readonly string[]): string {
  const rows = [
    ['Route', ...roles, 'Audit action', 'Note'],
    ...permissions.map((p) => [
      `\`${p.method} ${p.url}\``,
      ...roles.map((r) => who(p, r)),
      p.changes || p.auditRead ? `\`${p.action}\`` : `(${p.action}, not audited)`,
      (p.note ?? '').replaceAll('|', '\\|'),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(3, ...rows.map((r) => [...r[c]!].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}

/** The two tables: the admin port's operator routes, then the dashboard's merchant routes. */
export function renderPermissions(): string {
  return [
    'Operators, on the admin port (`yes`: the role may; `own`: any signed-in person, for their own sessions and tokens; `anyone`: no credential):',
    '',
    table(ADMIN_PERMISSIONS, OPERATOR_ROLES),
    '',
    "A merchant's own people, on the public port:",
    '',
    table(DASHBOARD_PERMISSIONS, MERCHANT_ROLES),
  ].join('\n');
}

/** The README as the generator writes it, beside the one on disk. */
export function renderReadme(path = README): { current: string; expected: string } {
  const current = readFileSync(path, 'utf8');
  const begin = current.indexOf(BEGIN_MARKER);
  const end = current.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`${path}: no ${BEGIN_MARKER} ... ${END_MARKER} pair`);
  const expected = `${current.slice(0, begin + BEGIN_MARKER.length)}\n\n${renderPermissions()}\n\n${current.slice(end)}`;
  return { current, expected };
}

const entry = process.argv[1];
if (entry && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))) {
  const { current, expected } = renderReadme();
  if (current !== expected) {
    writeFileSync(README, expected);
    process.stdout.write('wrote "Who may call what" into services/gateway/README.md\n');
  }
}
