import type { MerchantContext__Output } from '@agentpay/proto';
import { AppError, type FeeRate } from '@agentpay/wire';

/** The merchant the gateway authenticated; every RPC but ApplyUpstreamPayout is scoped to one. */
export function requireMerchant(
  merchant: MerchantContext__Output | null | undefined,
): MerchantContext__Output {
  if (!merchant?.mch_no) throw new AppError('INVALID_PARAMETER', 'merchant: required');
  return merchant;
}

export function feeRateOf(merchant: MerchantContext__Output): FeeRate {
  return { percentBps: merchant.fee_percent_bps, fixedCentavos: Number(merchant.fee_fixed_centavos) };
}
