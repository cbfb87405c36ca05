import { parseAmount } from '@agentpay/wire';
import type { CreateRecord } from '../records.js';
import type { Snapshot } from '../snapshot.js';

/** What the limits check needs: the creates, the transfers as stored, and whom the run limited with what. */
export interface LimitsInput {
  creates: CreateRecord[];
  transfers: Pick<Snapshot['transfers'][number], 'transfer_no' | 'status'>[];
  limited: ReadonlySet<string>;
  /** Pesos, as given to the admin API. */
  limits: { payout: { perTransfer: number; daily: number } };
  /** Mexico City days the run touched: a run across midnight may use each day's limit once. */
  days: number;
}

export interface LimitsCheck {
  violations: string[];
  /** Transfers of limited merchants refused with 40008: how often the limits bit. */
  refused: number;
}

const centavos = (pesos: unknown) => {
  const parsed = parseAmount(pesos as number);
  return parsed.ok ? parsed.centavos : Number.NaN;
};

/**
 * The limits held under faults: no limited merchant had a transfer over `perTransfer` accepted, and the
 * transfers it kept (every accepted one that did not fail: a failure gives its usage back) add up to no more
 * than `daily` per day touched. A refusal (40008) counts only for a limited merchant; anyone else's is
 * already an unexpected answer of the load. The ledger's own check (books) proves its usage counters.
 */
export function checkLimits(input: LimitsInput): LimitsCheck {
  const out: string[] = [];
  const status = new Map(input.transfers.map((t) => [t.transfer_no, t.status]));
  const perTransfer = centavos(input.limits.payout.perTransfer);
  const daily = centavos(input.limits.payout.daily) * input.days;
  const kept = new Map<string, number>();
  let refused = 0;
  for (const c of input.creates) {
    if (c.kind !== 'transfer' || !input.limited.has(c.mchNo)) continue;
    const amount = centavos(c.params['amount']);
    if (c.codes.includes(40008)) {
      refused += 1;
      if (amount <= perTransfer && c.acceptedAs.length > 0)
        out.push(`${c.mchNo} ${c.bizNo}: both accepted and refused with 40008`);
    }
    const transferNo = c.acceptedAs[0];
    if (!transferNo) continue;
    if (amount > perTransfer)
      out.push(`${c.mchNo} ${c.bizNo}: ${amount} centavos accepted over perTransfer ${perTransfer}`);
    if (status.get(transferNo) !== 'fail') kept.set(c.mchNo, (kept.get(c.mchNo) ?? 0) + amount);
  }
  for (const [mchNo, total] of kept)
    if (total > daily)
      out.push(
        `${mchNo}: transfers kept add up to ${total} centavos, over ${daily} for ${input.days} day(s)`,
      );
  return { violations: out, refused };
}
