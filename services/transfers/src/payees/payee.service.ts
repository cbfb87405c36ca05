import type { Clock } from '@agentpay/runtime';
import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, PayeeRow, PayeeStatus } from '../db/schema.js';
import {
  approvePayee,
  findActivePayee,
  findPayee,
  insertPayee,
  listPayees,
  removePayee,
} from './payee.repository.js';
import { checkPayee, describeProblem } from './payee-account.js';

export interface PayeeRegistryDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** How long a new payee cools off before transfers may go to it (PAYEE_COOLING_MINUTES), ms. */
  coolingMs: number;
}

/** A registered payee as callers see it: `cooling` past its usable time reads `usable`. */
export interface Payee extends Omit<PayeeRow, 'status'> {
  status: PayeeStatus;
}

export interface PayeePage {
  payees: Payee[];
  /** Empty on the last page. */
  nextCursor: string;
}

const PAGE_MAX = 200;

/** The status a payee has now. */
function effective(row: PayeeRow, now: Date): Payee {
  return row.status === 'cooling' && row.usable_at.getTime() <= now.getTime()
    ? { ...row, status: 'usable' }
    : row;
}

function cursorOf(row: PayeeRow): string {
  return Buffer.from(JSON.stringify([row.created_at.toISOString(), row.payee_id])).toString('base64url');
}

function readCursor(cursor: string): { createdAt: Date; payeeId: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
    return { createdAt, payeeId: id };
  } catch {
    throw new AppError('INVALID_PARAMETER', 'cursor');
  }
}

/** The registered payees of CONTRACT section 19: register, cool off, approve, remove, and the check. */
export function createPayeeRegistry(deps: PayeeRegistryDeps) {
  const { db, clock } = deps;
  return {
    /** Registers a payee (idempotent per account while it is registered); cooling until coolingMs passed. */
    async register(input: {
      mchNo: string;
      payeeType: string;
      payeeAccount: string;
      payeeName: string;
      payeeCode: string;
      registeredBy: string;
    }): Promise<{ payee: Payee; created: boolean }> {
      const check = checkPayee(input);
      if (!check.ok) throw new AppError('INVALID_PAYEE_ACCOUNT', describeProblem(check.problem));
      if (!input.payeeName || input.payeeName.length > 100)
        throw new AppError('INVALID_PARAMETER', 'payeeName');
      const now = clock.now();
      const { row, created } = await insertPayee(db, {
        mch_no: input.mchNo,
        payee_type: check.payee.payeeType,
        payee_account: check.payee.payeeAccount,
        payee_name: input.payeeName,
        payee_code: check.payee.payeeCode,
        usable_at: new Date(now.getTime() + deps.coolingMs),
        registered_by: input.registeredBy || 'api',
      });
      return { payee: effective(row, now), created };
    },

    async list(query: {
      mchNo: string;
      limit: number;
      cursor: string;
      withRemoved: boolean;
    }): Promise<PayeePage> {
      const limit = query.limit <= 0 ? 50 : Math.min(query.limit, PAGE_MAX);
      const after = readCursor(query.cursor);
      const rows = await listPayees(db, {
        mchNo: query.mchNo,
        limit: limit + 1,
        withRemoved: query.withRemoved,
        ...(after && { after }),
      });
      const now = clock.now();
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        payees: page.map((r) => effective(r, now)),
        nextCursor: rows.length > limit && last ? cursorOf(last) : '',
      };
    },

    async get(mchNo: string, payeeId: string): Promise<Payee> {
      const row = await findPayee(db, mchNo, payeeId);
      if (!row) throw new AppError('PAYEE_NOT_REGISTERED', 'payeeId');
      return effective(row, clock.now());
    },

    /**
     * A second merchant person makes a cooling payee usable at once. Refused (INVALID_PARAMETER) for the
     * person who registered it; a payee that is not cooling any more answers as it is.
     */
    async approve(input: { mchNo: string; payeeId: string; approvedBy: string }): Promise<Payee> {
      if (!input.approvedBy) throw new AppError('INVALID_PARAMETER', 'approvedBy');
      const now = clock.now();
      const approved = await approvePayee(db, { ...input, now });
      if (approved) return effective(approved, now);
      const row = await findPayee(db, input.mchNo, input.payeeId);
      if (!row || row.status === 'removed') throw new AppError('PAYEE_NOT_REGISTERED', 'payeeId');
      if (row.status === 'cooling' && row.registered_by === input.approvedBy)
        throw new AppError('INVALID_PARAMETER', 'the person who registered a payee cannot approve it');
      return effective(row, now);
    },

    /** Removes a payee at once; removing a removed one answers it as it is. */
    async remove(input: { mchNo: string; payeeId: string }): Promise<Payee> {
      const now = clock.now();
      const removed = await removePayee(db, { ...input, now });
      if (removed) return effective(removed, now);
      const row = await findPayee(db, input.mchNo, input.payeeId);
      if (!row) throw new AppError('PAYEE_NOT_REGISTERED', 'payeeId');
      return effective(row, now);
    },

    /** Whether a transfer may go to this account now: registered, not removed, and usable. */
    async usable(mchNo: string, payeeType: string, payeeAccount: string): Promise<boolean> {
      const row = await findActivePayee(db, mchNo, payeeType, payeeAccount);
      return !!row && effective(row, clock.now()).status === 'usable';
    },
  };
}

export type PayeeRegistry = ReturnType<typeof createPayeeRegistry>;
