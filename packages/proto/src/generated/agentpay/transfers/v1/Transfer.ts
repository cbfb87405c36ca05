// Original file: proto/transfers/v1/transfers.proto

import type { Long } from '@grpc/proto-loader';

export interface Transfer {
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
  'mch_no'?: (string);
  'app_id'?: (string);
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
  'title'?: (string);
  'reason'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  /**
   * Public payee code (Banxico institution code for SPEI types).
   */
  'payee_code'?: (string);
  /**
   * progress, success, close, fail
   */
  'status'?: (string);
  'finish_time'?: (string);
  'attach'?: (string);
  'notify_url'?: (string);
  'created_at'?: (string);
  'version'?: (number | string | Long);
  /**
   * SPEI tracking key the channel gave the payout; empty until it assigned one, or when it has none.
   * Once known it is kept: a later answer without one never blanks it.
   */
  'clave_rastreo'?: (string);
  /**
   * `transfer`, or `refund` (CONTRACT section 21: a payout returning a paid order's money to its payer; its
   * transfer_no is the refundNo, its biz_transfer_no the bizRefundNo).
   */
  'kind'?: (string);
  /**
   * A refund's pay order; empty for a transfer.
   */
  'order_no'?: (string);
  'biz_order_no'?: (string);
  /**
   * Banxico's CEP page of the payout, when the channel gave one.
   */
  'cep_url'?: (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), once the channel reported it; the
   * CEP's emisor.
   */
  'sender_bank'?: (string);
}

export interface Transfer__Output {
  'transfer_no': (string);
  'biz_transfer_no': (string);
  'mch_no': (string);
  'app_id': (string);
  'amount': (string);
  'fee': (string);
  'title': (string);
  'reason': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  /**
   * Public payee code (Banxico institution code for SPEI types).
   */
  'payee_code': (string);
  /**
   * progress, success, close, fail
   */
  'status': (string);
  'finish_time': (string);
  'attach': (string);
  'notify_url': (string);
  'created_at': (string);
  'version': (string);
  /**
   * SPEI tracking key the channel gave the payout; empty until it assigned one, or when it has none.
   * Once known it is kept: a later answer without one never blanks it.
   */
  'clave_rastreo': (string);
  /**
   * `transfer`, or `refund` (CONTRACT section 21: a payout returning a paid order's money to its payer; its
   * transfer_no is the refundNo, its biz_transfer_no the bizRefundNo).
   */
  'kind': (string);
  /**
   * A refund's pay order; empty for a transfer.
   */
  'order_no': (string);
  'biz_order_no': (string);
  /**
   * Banxico's CEP page of the payout, when the channel gave one.
   */
  'cep_url': (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), once the channel reported it; the
   * CEP's emisor.
   */
  'sender_bank': (string);
}
