// Every merchant's balance against what the final orders and transfers imply (the rules of the books in
// docs/guarantees.md and services/ledger/README.md): a success pay-in adds its realAmount to `pending`
// until settled, then to `available`; a transfer in progress holds amount + fee in `frozen`; a success
// transfer takes amount + fee out; a returned one (success → close) gives the amount back and keeps the
// fee; a failed one, or one closed before success, costs nothing. Adjustments move `available`.

/** A pay order as its final state shows it. Amounts in centavos. */
export interface BookedPayOrder {
  mchNo: string;
  orderNo: string;
  status: string;
  realAmount: number;
  settled: boolean;
}

/** A transfer as its final state shows it; `returned`: it reached `close` from `success`. */
export interface BookedTransfer {
  mchNo: string;
  transferNo: string;
  status: string;
  amount: number;
  fee: number;
  returned: boolean;
}

export interface MerchantBalance {
  available: number;
  pending: number;
  frozen: number;
}

/** What the final states imply for each merchant (those in `adjustments` count even without orders). */
export function impliedBalances(
  payOrders: readonly BookedPayOrder[],
  transfers: readonly BookedTransfer[],
  adjustments: ReadonlyMap<string, number> = new Map(),
): Map<string, MerchantBalance> {
  const out = new Map<string, MerchantBalance>();
  const of = (mchNo: string) => {
    let b = out.get(mchNo);
    if (!b) {
      b = { available: 0, pending: 0, frozen: 0 };
      out.set(mchNo, b);
    }
    return b;
  };
  for (const [mchNo, amount] of adjustments) of(mchNo).available += amount;
  for (const o of payOrders) {
    if (o.status !== 'success') continue;
    if (o.settled) of(o.mchNo).available += o.realAmount;
    else of(o.mchNo).pending += o.realAmount;
  }
  for (const t of transfers) {
    const b = of(t.mchNo);
    if (t.status === 'progress' || t.status === 'submitting') {
      b.frozen += t.amount + t.fee;
      b.available -= t.amount + t.fee;
    } else if (t.status === 'success') b.available -= t.amount + t.fee;
    else if (t.status === 'close' && t.returned) b.available -= t.fee;
  }
  return out;
}

/**
 * Differences between the ledger's balances and the implied ones, one line per merchant part; also a
 * merchant part below zero, and a merchant the ledger has and the orders do not imply (or the reverse).
 */
export function checkBalances(
  implied: ReadonlyMap<string, MerchantBalance>,
  ledger: ReadonlyMap<string, MerchantBalance>,
): string[] {
  const out: string[] = [];
  const zero: MerchantBalance = { available: 0, pending: 0, frozen: 0 };
  for (const mchNo of [...new Set([...implied.keys(), ...ledger.keys()])].sort()) {
    const want = implied.get(mchNo) ?? zero;
    const have = ledger.get(mchNo) ?? zero;
    for (const part of ['available', 'pending', 'frozen'] as const) {
      if (have[part] < 0) out.push(`${mchNo} ${part} below zero: ${have[part]}`);
      if (have[part] !== want[part])
        out.push(`${mchNo} ${part}: ledger ${have[part]}, orders and transfers imply ${want[part]}`);
    }
  }
  return out;
}
