import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ESTADO_STATUS, REFUSALS } from './stp.mapping.js';
import { RETURN_CAUSE } from './stp.webhook.js';

// docs/channels/stp.md tells operators what each STP code does; its tables are written from these exported
// tables. This keeps them from drifting apart: a code added or remapped here fails until the page says so.

const page = readFileSync(new URL('../../../../../docs/channels/stp.md', import.meta.url), 'utf8');

/** The rows of the Markdown table whose header starts with `header`, as trimmed cells. */
function table(header: string): string[][] {
  const lines = page.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
  if (start < 0) throw new Error(`no table headed ${header} in docs/channels/stp.md`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The codes written in backticks in a cell. */
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

describe('docs/channels/stp.md', () => {
  it('lists every registraOrden refusal id with what the platform does about it', () => {
    const rows = table('`id`').filter((row) => row[0] !== 'any other');
    const documented = new Map(rows.map((row) => [Number((row[0] ?? '').replace('−', '-')), row[2] ?? '']));
    expect([...documented.keys()].sort()).toEqual(Object.keys(REFUSALS).map(Number).sort());
    const words = {
      payee_refused: 'the payee is refused',
      already_exists: 'never sends it twice',
      unavailable: 'the route is unavailable',
    } as const;
    for (const [id, rule] of Object.entries(REFUSALS))
      expect(documented.get(Number(id)), `refusal ${id}`).toContain(words[rule.kind]);
  });

  it('maps every order estado to the transfer status the platform gives it', () => {
    const documented = new Map<string, string>();
    for (const row of table('`estado`').filter((r) => r[0] !== 'anything else'))
      for (const estado of codes(row[0] ?? '')) documented.set(estado, row[2] ?? '');
    expect([...documented.keys()].sort()).toEqual(Object.keys(ESTADO_STATUS).sort());
    const transfer = {
      success: /^`success`$/,
      fail: /^`fail`/,
      returned: /^`success`, then `close`/,
    } as const;
    for (const [estado, status] of Object.entries(ESTADO_STATUS))
      expect(documented.get(estado), estado).toMatch(transfer[status]);
  });

  it('gives every devolver cause the platform sends', () => {
    const documented = table('Cause').map((row) => Number(row[0]));
    expect(documented.sort((a, b) => a - b)).toEqual(Object.values(RETURN_CAUSE).sort((a, b) => a - b));
    for (const cause of Object.values(RETURN_CAUSE))
      expect(page).toContain(`{"mensaje":"devolver","id":${cause}}`);
  });
});
