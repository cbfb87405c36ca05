import { AppError } from './codes.js';

/**
 * A paged list as an operator or a merchant's dashboard asks for it over gRPC (ListPayOrders, ListTransfers):
 * every field is the wire's text, '' when not given.
 */
export interface ListRequest {
  /** '' for every merchant. */
  mchNo: string;
  query: string;
  status: string;
  createdFrom: string;
  createdTo: string;
  /** 0 asks for the default (50). */
  limit: number;
  /** '' for the first page. */
  cursor: string;
}

/** A list request checked: what a repository's page query takes. */
export interface ListPage {
  mchNo: string | undefined;
  search: string | undefined;
  status: string | undefined;
  from: Date | undefined;
  to: Date | undefined;
  limit: number;
  /** The number of the last row of the previous page, from the cursor. */
  after: string | undefined;
}

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;
export const LIST_MAX_SEARCH = 64;

function invalid(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field} (${problem})`);
}

function instant(text: string, field: string): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw invalid(field, 'must be an instant');
  return date;
}

/**
 * A cursor names the last row of the previous page: `<kind>:<number>` in base64url, so a cursor of one list
 * (`o` orders, `t` transfers) is refused by the other.
 */
export function encodeListCursor(kind: string, lastNo: string): string {
  return Buffer.from(`${kind}:${lastNo}`).toString('base64url');
}

function decodeListCursor(kind: string, cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString();
  const prefix = `${kind}:`;
  const lastNo = text.startsWith(prefix) ? text.slice(prefix.length) : '';
  if (!/^[A-Za-z0-9]{1,40}$/.test(lastNo)) throw invalid('cursor', 'unknown');
  return lastNo;
}

/**
 * Checks a list request: limit 1..200 (0 for 50), a status among `statuses`, a search of at most 64
 * characters, instants for the creation window, a cursor of this list's `kind`. Each refusal is
 * INVALID_PARAMETER naming the field.
 */
export function readListRequest(
  request: ListRequest,
  list: { cursorKind: string; statuses: readonly string[] },
): ListPage {
  const limit = request.limit === 0 ? LIST_DEFAULT_LIMIT : request.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT)
    throw invalid('limit', `must be 1..${LIST_MAX_LIMIT}`);
  if (request.status && !list.statuses.includes(request.status)) throw invalid('status', 'unknown');
  const search = request.query.trim();
  if (search.length > LIST_MAX_SEARCH) throw invalid('query', `at most ${LIST_MAX_SEARCH} characters`);
  return {
    mchNo: request.mchNo || undefined,
    search: search || undefined,
    status: request.status || undefined,
    from: instant(request.createdFrom, 'createdFrom'),
    to: instant(request.createdTo, 'createdTo'),
    limit,
    after: request.cursor ? decodeListCursor(list.cursorKind, request.cursor) : undefined,
  };
}
