// Original file: proto/ledger/v1/ledger.proto

import type { MerchantSettlement as _agentpay_ledger_v1_MerchantSettlement, MerchantSettlement__Output as _agentpay_ledger_v1_MerchantSettlement__Output } from '../../../agentpay/ledger/v1/MerchantSettlement.js';

export interface ListSettlementsResponse {
  'items'?: (_agentpay_ledger_v1_MerchantSettlement)[];
  /**
   * Empty on the last page.
   */
  'next_after'?: (string);
}

export interface ListSettlementsResponse__Output {
  'items': (_agentpay_ledger_v1_MerchantSettlement__Output)[];
  /**
   * Empty on the last page.
   */
  'next_after': (string);
}
