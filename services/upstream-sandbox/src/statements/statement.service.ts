import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MovementKind } from './clave-rastreo.js';
import { type StatementCursor, type StatementRow, statementPage } from './statement.repository.js';

/** One line of the statement as the channel API shows it (services/upstream-sandbox/README.md). */
export interface StatementLineView {
  reference: string;
  claveRastreo: string;
  kind: MovementKind;
  /** Centavos. */
  amount: number;
  occurredAt: string;
  account: string;
  platformRef: string;
  upstreamRef: string;
  senderAccount: string;
  senderName: string;
  applied: boolean;
}

/** The statement's last line: a statement without it was cut and is not the whole day. */
export interface StatementEndView {
  end: true;
  day: string;
  lines: number;
}

function lineView(row: StatementRow): StatementLineView {
  return {
    reference: row.reference,
    claveRastreo: row.clave_rastreo,
    kind: row.kind,
    amount: row.amount,
    occurredAt: row.occurred_at.toISOString(),
    account: row.account,
    platformRef: row.platform_ref,
    upstreamRef: row.upstream_ref,
    senderAccount: row.sender_account,
    senderName: row.sender_name,
    applied: row.applied,
  };
}

/** Daily statements, read a keyset page at a time so a day of any size takes one page of memory. */
export function createStatementService(db: Kysely<Database>, settings: { pageSize: number }) {
  return {
    /** Every movement of the Mexico City day `day` (yyyy-MM-dd) in time order, then the end line. */
    async *lines(day: string): AsyncGenerator<StatementLineView | StatementEndView> {
      let after: StatementCursor | undefined;
      let count = 0;
      for (;;) {
        const rows = await statementPage(db, { day, after, limit: settings.pageSize });
        for (const row of rows) yield lineView(row);
        count += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < settings.pageSize) break;
        after = { at: last.cursor_at, reference: last.reference };
      }
      yield { end: true, day, lines: count };
    },
  };
}

export type StatementService = ReturnType<typeof createStatementService>;
