import { validateClabe, validateDebitCard } from '@agentpay/spei';
import type { BatchRequestItem } from '../db/schema.js';

// The dashboard's batch file (docs/merchant-api.md "Batch payouts"): UTF-8 CSV with a header row, English or
// Spanish column names in any order, at most 1,000 rows. Every row is checked as the merchant API checks a
// transfer, and each problem is named by its row and column, so a person sees all of them before anything
// is sent; transfers checks the accepted file again when the batch is created.

/** Most rows in one file: a batch's most items. */
export const MAX_ROWS = 1_000;

/** The columns a file may have, each with the header names it answers to (compared without case or accents). */
const COLUMNS = {
  bizTransferNo: ['biztransferno', 'referencia', 'ref'],
  amount: ['amount', 'monto', 'importe'],
  payeeAccount: ['payeeaccount', 'clabe', 'cuenta'],
  payeeName: ['payeename', 'beneficiario', 'nombre'],
  payeeType: ['payeetype', 'tipo', 'tipodecuenta'],
  payeeCode: ['payeecode', 'banco', 'clavebanco'],
  title: ['title', 'concepto'],
  reason: ['reason', 'motivo'],
} as const satisfies Record<keyof BatchRequestItem, readonly string[]>;
type Column = keyof typeof COLUMNS;
const REQUIRED: readonly Column[] = ['bizTransferNo', 'amount', 'payeeAccount'];
const MAX_LENGTH: Record<Column, number> = {
  bizTransferNo: 100,
  amount: 20,
  payeeAccount: 100,
  payeeName: 50,
  payeeType: 32,
  payeeCode: 64,
  title: 100,
  reason: 50,
};
const PAYEE_TYPES = ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'] as const;

/** Why a cell is refused; the dashboard says each in the reader's language. */
export type CellProblem =
  | 'required'
  | 'too_long'
  | 'amount'
  | 'payee_type'
  | 'clabe'
  | 'card'
  | 'payee_code'
  | 'repeated';

export interface RowCheck {
  /** The row's line in the file (the header is line 1). */
  line: number;
  /** The row's cells as written (trimmed), to show beside its errors. */
  cells: Record<Column, string>;
  item?: BatchRequestItem;
  errors: { column: Column; problem: CellProblem }[];
}

export type FileProblem = 'empty' | 'no_header' | 'missing_column' | 'too_many_rows' | 'unbalanced_quotes';

export interface FileCheck {
  /** Problems of the file as a whole (then `rows` may be empty). */
  problems: { problem: FileProblem; column?: string }[];
  rows: RowCheck[];
  /** Centavos of the rows without errors. */
  amount: number;
  ok: boolean;
}

/**
 * RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks. Undefined: an open quote.
 * The separator is the comma, or the semicolon when the first line has semicolons and no comma (a
 * spreadsheet in Spanish saves so).
 */
export function parseCsv(text: string): string[][] | undefined {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = input.split(/\r?\n/, 1)[0] ?? '';
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === separator) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (quoted) return undefined;
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  // Blank lines are not rows.
  return records.filter((r) => r.some((cell) => cell.trim() !== ''));
}

const normalise = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** Pesos as written in the file (`1250.50`, `1250`) to centavos; undefined when not 0.01..99,999,999.99. */
export function centavosOf(text: string): number | undefined {
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return undefined;
  const centavos = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return centavos >= 1 ? centavos : undefined;
}

function checkRow(cells: Record<Column, string>, line: number, seen: Map<string, number>): RowCheck {
  const errors: RowCheck['errors'] = [];
  const problem = (column: Column, p: CellProblem) => errors.push({ column, problem: p });
  for (const column of Object.keys(COLUMNS) as Column[]) {
    if (cells[column].length > MAX_LENGTH[column]) problem(column, 'too_long');
  }
  for (const column of REQUIRED) if (cells[column] === '') problem(column, 'required');
  if (cells.bizTransferNo !== '') {
    if (seen.has(cells.bizTransferNo)) problem('bizTransferNo', 'repeated');
    else seen.set(cells.bizTransferNo, line);
  }
  const amount = cells.amount === '' ? undefined : centavosOf(cells.amount);
  if (cells.amount !== '' && amount === undefined) problem('amount', 'amount');
  const payeeType = cells.payeeType || 'spei_transfer';
  let payeeCode = cells.payeeCode;
  if (!(PAYEE_TYPES as readonly string[]).includes(payeeType)) problem('payeeType', 'payee_type');
  else if (cells.payeeAccount !== '') {
    if (payeeType === 'spei_transfer') {
      const clabe = validateClabe(cells.payeeAccount);
      if (!clabe.ok) problem('payeeAccount', 'clabe');
      else if (payeeCode && payeeCode !== clabe.institution.spei) problem('payeeCode', 'payee_code');
      else payeeCode = clabe.institution.spei;
    } else if (payeeType === 'bank_card') {
      if (!validateDebitCard(cells.payeeAccount).ok) problem('payeeAccount', 'card');
      if (!payeeCode) problem('payeeCode', 'required');
    }
  }
  if (errors.length > 0 || amount === undefined) return { line, cells, errors };
  return {
    line,
    cells,
    errors,
    item: {
      bizTransferNo: cells.bizTransferNo,
      amount,
      payeeType,
      payeeAccount: cells.payeeAccount,
      payeeName: cells.payeeName,
      payeeCode,
      title: cells.title,
      reason: cells.reason,
    },
  };
}

/** Checks a whole file: every row, every problem. */
export function checkBatchFile(text: string): FileCheck {
  const fail = (problems: FileCheck['problems']): FileCheck => ({ problems, rows: [], amount: 0, ok: false });
  const records = parseCsv(text);
  if (!records) return fail([{ problem: 'unbalanced_quotes' }]);
  const [header, ...body] = records;
  if (!header) return fail([{ problem: 'empty' }]);
  const positions = new Map<Column, number>();
  header.forEach((name, i) => {
    const key = normalise(name);
    const column = (Object.keys(COLUMNS) as Column[]).find((c) =>
      (COLUMNS[c] as readonly string[]).includes(key),
    );
    if (column && !positions.has(column)) positions.set(column, i);
  });
  if (positions.size === 0) return fail([{ problem: 'no_header' }]);
  const missing = REQUIRED.filter((c) => !positions.has(c));
  if (missing.length > 0) return fail(missing.map((column) => ({ problem: 'missing_column', column })));
  if (body.length === 0) return fail([{ problem: 'empty' }]);
  if (body.length > MAX_ROWS) return fail([{ problem: 'too_many_rows' }]);
  const seen = new Map<string, number>();
  const rows = body.map((record, i) => {
    const cells = Object.fromEntries(
      (Object.keys(COLUMNS) as Column[]).map((c) => {
        const at = positions.get(c);
        return [c, at === undefined ? '' : (record[at] ?? '').trim()];
      }),
    ) as Record<Column, string>;
    return checkRow(cells, i + 2, seen);
  });
  const ok = rows.every((r) => r.errors.length === 0);
  return { problems: [], rows, amount: rows.reduce((s, r) => s + (r.item?.amount ?? 0), 0), ok };
}
