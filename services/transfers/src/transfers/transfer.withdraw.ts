import type { Logger } from '@agentpay/logger';
import type { Kysely } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import type { TransferLedger } from '../ledger/ledger.client.js';
import { claimForVoiding, withdrawSubmission } from './transfer.repository.js';

export interface WithdrawDeps {
  db: Kysely<Database>;
  ledger: TransferLedger;
  logger: Logger;
  /** Longest wait for the ledger's answer. */
  ledgerTimeoutMs: number;
}

/**
 * Withdraws a submission nothing upstream has or will have: claims it (`voiding`), voids its freeze,
 * then removes the row. The freeze and the transfer live in two databases, so the row goes only once
 * the ledger has voided the freeze (and refuses any later freeze of this transfer number); if the
 * ledger cannot be reached the row stays `voiding` and the submission sweep finishes the job. True when
 * the row is gone.
 */
export async function voidAndWithdraw(
  deps: WithdrawDeps,
  row: Pick<TransferRow, 'transfer_no' | 'mch_no'>,
  from: readonly ('pending' | 'sent' | 'voiding')[],
): Promise<boolean> {
  const { db, ledger, logger } = deps;
  if (!(await claimForVoiding(db, row.transfer_no, from))) return false;
  try {
    await ledger.voidFreeze(
      { mchNo: row.mch_no, transferNo: row.transfer_no },
      { timeoutMs: deps.ledgerTimeoutMs },
    );
  } catch (err) {
    logger.warn(
      { err, transferNo: row.transfer_no },
      'could not void the freeze of a withdrawn submission; the sweep will retry',
    );
    return false;
  }
  return withdrawSubmission(db, row.transfer_no, 'voiding');
}
