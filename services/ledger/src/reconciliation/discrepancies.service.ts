import { DISCREPANCY_KINDS, DISCREPANCY_STATES } from '@agentpay/api';
import type { Kysely } from 'kysely';
import type { Database, DiscrepancyRow, ReconRunRow } from '../db/schema.js';
import { LedgerError } from '../ledger/ledger.errors.js';
import { getDiscrepancy, listDiscrepancies } from './discrepancies.repository.js';
import { listReconRuns } from './recon-runs.repository.js';

/** A page of discrepancies as asked for: each filter '' when absent. */
export interface DiscrepanciesRequest {
  state: string;
  kind: string;
  day: string;
  /** 0 asks for the default (100). */
  limit: number;
  /** The last id of the previous page; '' for the first. */
  afterId: string;
}

/** A page of runs as asked for: each filter '' when absent. */
export interface ReconRunsRequest {
  day: string;
  routeId: string;
  /** 0 asks for the default (50). */
  limit: number;
  /** The last id of the previous page; '' for the first. */
  beforeId: string;
}

export interface DiscrepancyQueries {
  /** Discrepancies by id, oldest first; INVALID_REQUEST names the first bad filter. */
  list(request: DiscrepanciesRequest): Promise<{ items: DiscrepancyRow[]; next: number | null }>;
  /** One discrepancy; NOT_FOUND for anything that names none (an unknown number or no number at all). */
  get(id: string): Promise<DiscrepancyRow>;
  /** The runs that found them, newest first; INVALID_REQUEST names the first bad filter. */
  runs(request: ReconRunsRequest): Promise<{ items: ReconRunRow[]; next: number | null }>;
}

function invalid(detail: string): LedgerError {
  return new LedgerError('INVALID_REQUEST', detail);
}

/** A filter of the request: undefined when absent (''), one of `table`'s entries, or INVALID_REQUEST. */
function filterOf<T extends string>(table: readonly T[], value: string, detail: string): T | undefined {
  if (!value) return undefined;
  if (!(table as readonly string[]).includes(value)) throw invalid(detail);
  return value as T;
}

/** What the reconciliation found, for operators (the admin API through the gateway). */
export function createDiscrepancyQueries(db: Kysely<Database>): DiscrepancyQueries {
  return {
    async list(request) {
      const state = filterOf(DISCREPANCY_STATES, request.state, 'state (open or resolved)');
      const kind = filterOf(DISCREPANCY_KINDS, request.kind, `kind (one of ${DISCREPANCY_KINDS.join(', ')})`);
      if (request.day && !/^\d{4}-\d{2}-\d{2}$/.test(request.day)) throw invalid('day (yyyy-MM-dd)');
      const limit = request.limit === 0 ? 100 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalid('limit (must be 1..500)');
      if (request.afterId && !/^\d{1,15}$/.test(request.afterId)) throw invalid('after_id (unknown)');
      return listDiscrepancies(db, {
        limit,
        ...(state && { state }),
        ...(kind && { kind }),
        ...(request.day && { day: request.day }),
        ...(request.afterId && { afterId: Number(request.afterId) }),
      });
    },
    async get(text) {
      const id = /^\d{1,15}$/.test(text) ? Number(text) : 0;
      const row = id < 1 ? undefined : await getDiscrepancy(db, id);
      if (!row) throw new LedgerError('NOT_FOUND', `discrepancy ${text}`);
      return row;
    },
    async runs(request) {
      if (request.day && !/^\d{4}-\d{2}-\d{2}$/.test(request.day)) throw invalid('day (yyyy-MM-dd)');
      if (request.routeId && !/^[a-z0-9-]{1,64}$/.test(request.routeId)) throw invalid('route_id (unknown)');
      const limit = request.limit === 0 ? 50 : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalid('limit (must be 1..500)');
      if (request.beforeId && !/^\d{1,15}$/.test(request.beforeId)) throw invalid('before_id (unknown)');
      return listReconRuns(db, {
        limit,
        ...(request.day && { day: request.day }),
        ...(request.routeId && { routeId: request.routeId }),
        ...(request.beforeId && { beforeId: Number(request.beforeId) }),
      });
    },
  };
}
