import type { LedgerRecord__Output, MerchantBalance__Output } from '@agentpay/proto';
import { AppError, centavosToAmount, formatWireTime } from '@agentpay/wire';

// The merchant-facing shapes of the books (docs/merchant-api.md "Balance and statement"). The merchant endpoints and the admin
// API render through these, so an operator and a merchant read the same figures.

type Wire = Record<string, string | number>;

/** Pesos for int64 centavos as the ledger sends them (a decimal string); signed changes stay signed. */
function pesos(centavos: string | number): number {
  const n = Number(centavos);
  // Past 2^53 a peso figure would no longer be exact; that is a fault to surface, not to round.
  if (!Number.isSafeInteger(n)) throw new AppError('INTERNAL_ERROR', `ledger amount ${centavos}`);
  return centavosToAmount(n);
}

/** `query/balance`'s data: the three parts in pesos. */
export function balanceView(balance: MerchantBalance__Output) {
  return {
    currency: 'MXN',
    available: pesos(balance.available),
    pending: pesos(balance.pending),
    frozen: pesos(balance.frozen),
  };
}

/** One record of `query/balanceRecords`; a reference the record does not have is left out. */
export function recordView(record: LedgerRecord__Output, timeZone: string): Wire {
  const out: Wire = {};
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') out[key] = value;
  };
  put('recordNo', record.record_no);
  put('type', record.type);
  put('orderNo', record.order_no);
  put('bizOrderNo', record.biz_order_no);
  put('transferNo', record.transfer_no);
  put('bizTransferNo', record.biz_transfer_no);
  put('amount', pesos(record.amount));
  put('fee', pesos(record.fee));
  put('availableChange', pesos(record.available_change));
  put('pendingChange', pesos(record.pending_change));
  put('frozenChange', pesos(record.frozen_change));
  put('availableBalance', pesos(record.available_balance));
  put('pendingBalance', pesos(record.pending_balance));
  put('frozenBalance', pesos(record.frozen_balance));
  put('remark', record.remark);
  put('createTime', record.create_time ? formatWireTime(new Date(record.create_time), timeZone) : undefined);
  return out;
}
