import { Readable } from 'node:stream';
import { csvRow, type FastifyReply } from '@agentpay/http';
import {
  type CallOptions,
  call,
  type GetStatementResponse__Output,
  type LedgerRecord__Output,
  type LedgerServiceClient,
  type MerchantBalance__Output,
} from '@agentpay/proto';
import { AppError, centavosToAmount, formatWireTime, isAppError, parseWireTime } from '@agentpay/wire';
import { z } from 'zod';
import { schemaProblem } from '../shared/schema-problem.js';
import { balanceView, recordView } from './ledger.views.js';

// A merchant's statement of a period, as the console (`/admin/merchants/:mchNo/statement[.csv]`) and the
// merchant dashboard (`/dashboard/api/statement[.csv]`) read it: the same query, the same JSON and the
// same CSV, paged by the ledger's GetStatement (docs/console.md "Ledger").

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A statement spans at most this many days: the keyset pages stay fast, a CSV stays a download. */
export const MAX_STATEMENT_DAYS = 366;
/** Records per ledger call while a CSV streams: one page in memory, never the statement. */
const CSV_PAGE = 500;

const day = z.string().regex(DAY, 'must be a day as yyyy-MM-dd');

export const statementQuery = z.strictObject({
  /** First day of the period (Mexico City), inclusive; default the first of this month. */
  from: day.optional(),
  /** Last day of the period, inclusive; default today. */
  to: day.optional(),
  /** The `next` of the page before. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const statementCsvQuery = statementQuery.pick({ from: true, to: true }).strict();

export interface Period {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** The day after `ymd`, as yyyy-MM-dd (calendar arithmetic at noon UTC, no zone involved). */
function nextDay(ymd: string): string | null {
  const date = new Date(`${ymd}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The period's instants: 00:00 of `from` to 00:00 of the day after `to`, in the platform's zone. A
 * message for a 400 when the days are not real, out of order or too far apart.
 */
export function periodOf(
  query: { from?: string | undefined; to?: string | undefined },
  timeZone: string,
  now = new Date(),
): Period | string {
  const today = formatWireTime(now, timeZone).slice(0, 10);
  const to = query.to ?? today;
  const from = query.from ?? `${to.slice(0, 8)}01`;
  const start = parseWireTime(`${from} 00:00:00`, timeZone);
  const after = nextDay(to);
  const end = after === null ? null : parseWireTime(`${after} 00:00:00`, timeZone);
  if (!start || formatWireTime(start, timeZone).slice(0, 10) !== from) return 'from: not a real day';
  if (!end || formatWireTime(new Date(end.getTime() - 1), timeZone).slice(0, 10) !== to) {
    return 'to: not a real day';
  }
  if (from > to) return 'from: must not be after to';
  if (end.getTime() - start.getTime() > MAX_STATEMENT_DAYS * 86_400_000 + 3_600_000) {
    return `to: at most ${MAX_STATEMENT_DAYS} days after from`;
  }
  return { from, to, start, end };
}

export interface StatementDeps {
  client: LedgerServiceClient;
  timeZone: string;
}

/** The ledger's answers as HTTP: a refused cursor is the caller's 400, an unreachable ledger 503. */
export function statementRefusal(err: unknown): { status: number; body: { error: string; message: string } } {
  if (isAppError(err) && err.codeName === 'INVALID_PARAMETER') {
    return { status: 400, body: { error: 'bad_request', message: err.detail ?? err.msg } };
  }
  if (isAppError(err) && err.codeName === 'SERVICE_UNAVAILABLE') {
    return { status: 503, body: { error: 'unavailable', message: 'the ledger is unavailable; retry later' } };
  }
  throw err;
}

function page(
  deps: StatementDeps,
  mchNo: string,
  period: Period,
  cursor: string,
  limit: number,
  options: CallOptions,
): Promise<GetStatementResponse__Output> {
  return call(
    deps.client,
    deps.client.GetStatement,
    {
      mch_no: mchNo,
      start_time: period.start.toISOString(),
      end_time: period.end.toISOString(),
      limit,
      cursor,
    },
    options,
  );
}

const parts = (balance: MerchantBalance__Output | null) => {
  if (!balance) throw new AppError('INTERNAL_ERROR', 'the ledger answered a statement without its balances');
  const view = balanceView(balance);
  return { available: view.available, pending: view.pending, frozen: view.frozen };
};

/** One page of the statement as JSON: the period, its opening and closing balances, the entries, `next`. */
export async function statementPage(
  deps: StatementDeps,
  mchNo: string,
  query: z.output<typeof statementQuery>,
  period: Period,
  options: CallOptions,
) {
  const answer = await page(deps, mchNo, period, query.cursor ?? '', query.limit, options);
  return {
    mchNo,
    currency: 'MXN',
    from: period.from,
    to: period.to,
    opening: parts(answer.opening),
    closing: parts(answer.closing),
    items: answer.records.map((r) => recordView(r, deps.timeZone)),
    ...(answer.next_cursor && { next: answer.next_cursor }),
  };
}

const CSV_COLUMNS = [
  'recordNo',
  'createTime',
  'type',
  'orderNo',
  'bizOrderNo',
  'transferNo',
  'bizTransferNo',
  'amount',
  'fee',
  'availableChange',
  'pendingChange',
  'frozenChange',
  'availableBalance',
  'pendingBalance',
  'frozenBalance',
  'remark',
] as const;

/**
 * Int64 centavos as the ledger sends them (a decimal string) as pesos, a number the CSV writes as it is
 * (the double nearest the exact decimal, like the merchant API's amounts).
 */
function pesos(centavos: string | number): number {
  const n = Number(centavos);
  if (!Number.isSafeInteger(n)) throw new AppError('INTERNAL_ERROR', `ledger amount ${centavos}`);
  return centavosToAmount(n);
}

type Balances = Pick<LedgerRecord__Output, 'available_balance' | 'pending_balance' | 'frozen_balance'>;

/** A row with no movement: the balances at the period's opening or closing. */
function balanceRow(type: 'opening' | 'closing', at: Date, b: Balances, timeZone: string) {
  return csvRow([
    '',
    formatWireTime(at, timeZone),
    type,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    pesos(b.available_balance),
    pesos(b.pending_balance),
    pesos(b.frozen_balance),
    '',
  ]);
}

function recordRow(r: LedgerRecord__Output, timeZone: string) {
  return csvRow([
    r.record_no,
    r.create_time ? formatWireTime(new Date(r.create_time), timeZone) : '',
    r.type,
    r.order_no,
    r.biz_order_no,
    r.transfer_no,
    r.biz_transfer_no,
    pesos(r.amount),
    pesos(r.fee),
    pesos(r.available_change),
    pesos(r.pending_change),
    pesos(r.frozen_change),
    pesos(r.available_balance),
    pesos(r.pending_balance),
    pesos(r.frozen_balance),
    r.remark,
  ]);
}

/**
 * Streams the statement as CSV: a header, an `opening` row, every entry oldest first (pages of 500 read
 * from the ledger as the client takes them), and a `closing` row with the balances after the last entry.
 * The first page is read before the answer starts, so a refusal is still a status; a failure later ends
 * the download short (it never ends with a `closing` row then).
 */
export async function sendStatementCsv(
  reply: FastifyReply,
  deps: StatementDeps,
  mchNo: string,
  period: Period,
  options: CallOptions,
) {
  const first = await page(deps, mchNo, period, '', CSV_PAGE, options);
  const opening = first.opening;
  if (!opening) throw new AppError('INTERNAL_ERROR', 'the ledger answered a statement without its balances');
  const { timeZone } = deps;
  async function* lines() {
    yield csvRow(CSV_COLUMNS);
    const openingBalances = {
      available_balance: opening?.available ?? '0',
      pending_balance: opening?.pending ?? '0',
      frozen_balance: opening?.frozen ?? '0',
    };
    yield balanceRow('opening', period.start, openingBalances, timeZone);
    let last: Balances = openingBalances;
    let current = first;
    for (;;) {
      for (const record of current.records) {
        yield recordRow(record, timeZone);
        last = record;
      }
      if (!current.next_cursor) break;
      current = await page(deps, mchNo, period, current.next_cursor, CSV_PAGE, options);
    }
    yield balanceRow('closing', period.end, last, timeZone);
  }
  const name = `statement-${mchNo}-${period.from}-${period.to}.csv`;
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}

/** The 400 of a query that fails its schema or names no real period, or the period. */
export function parsePeriod<S extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(
  schema: S,
  raw: unknown,
  timeZone: string,
): { ok: true; query: z.output<S>; period: Period } | { ok: false; message: string } {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) return { ok: false, message: schemaProblem(parsed.error) };
  const period = periodOf(parsed.data, timeZone);
  if (typeof period === 'string') return { ok: false, message: period };
  return { ok: true, query: parsed.data, period };
}
