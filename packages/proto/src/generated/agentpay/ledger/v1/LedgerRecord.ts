// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One merchant-facing ledger record (docs/merchant-api.md "Balance and statement", balanceRecords).
 */
export interface LedgerRecord {
  'record_no'?: (string);
  /**
   * pay_in, settle, transfer_freeze, transfer_unfreeze, transfer_out, transfer_return, adjust
   */
  'type'?: (string);
  'order_no'?: (string);
  'biz_order_no'?: (string);
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
  /**
   * The order's or transfer's amount; for adjust the signed adjustment.
   */
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
  'available_change'?: (number | string | Long);
  'pending_change'?: (number | string | Long);
  'frozen_change'?: (number | string | Long);
  'available_balance'?: (number | string | Long);
  'pending_balance'?: (number | string | Long);
  'frozen_balance'?: (number | string | Long);
  'remark'?: (string);
  'create_time'?: (string);
}

/**
 * One merchant-facing ledger record (docs/merchant-api.md "Balance and statement", balanceRecords).
 */
export interface LedgerRecord__Output {
  'record_no': (string);
  /**
   * pay_in, settle, transfer_freeze, transfer_unfreeze, transfer_out, transfer_return, adjust
   */
  'type': (string);
  'order_no': (string);
  'biz_order_no': (string);
  'transfer_no': (string);
  'biz_transfer_no': (string);
  /**
   * The order's or transfer's amount; for adjust the signed adjustment.
   */
  'amount': (string);
  'fee': (string);
  'available_change': (string);
  'pending_change': (string);
  'frozen_change': (string);
  'available_balance': (string);
  'pending_balance': (string);
  'frozen_balance': (string);
  'remark': (string);
  'create_time': (string);
}
