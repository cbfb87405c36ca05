// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';
import type { Long } from '@grpc/proto-loader';

/**
 * A refund of a paid order (CONTRACT section 21). The gateway reads the order from payments and passes its
 * facts; transfers keeps what was refunded per order, so refunds never add up to more than was paid.
 */
export interface CreateRefundRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'biz_refund_no'?: (string);
  /**
   * Centavos; 0: everything not yet refunded.
   */
  'amount'?: (number | string | Long);
  'reason'?: (string);
  'notify_url'?: (string);
  'client_ip'?: (string);
  'order_no'?: (string);
  'biz_order_no'?: (string);
  /**
   * The order's status; only `success` can be refunded.
   */
  'order_status'?: (string);
  /**
   * Centavos the order paid.
   */
  'paid_amount'?: (number | string | Long);
  'payer_account'?: (string);
  'payer_name'?: (string);
  'payer_bank'?: (string);
  'payer_rfc'?: (string);
  /**
   * The paying deposit's claveRastreo, named in the refund's conceptoPago.
   */
  'order_clave_rastreo'?: (string);
}

/**
 * A refund of a paid order (CONTRACT section 21). The gateway reads the order from payments and passes its
 * facts; transfers keeps what was refunded per order, so refunds never add up to more than was paid.
 */
export interface CreateRefundRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'biz_refund_no': (string);
  /**
   * Centavos; 0: everything not yet refunded.
   */
  'amount': (string);
  'reason': (string);
  'notify_url': (string);
  'client_ip': (string);
  'order_no': (string);
  'biz_order_no': (string);
  /**
   * The order's status; only `success` can be refunded.
   */
  'order_status': (string);
  /**
   * Centavos the order paid.
   */
  'paid_amount': (string);
  'payer_account': (string);
  'payer_name': (string);
  'payer_bank': (string);
  'payer_rfc': (string);
  /**
   * The paying deposit's claveRastreo, named in the refund's conceptoPago.
   */
  'order_clave_rastreo': (string);
}
