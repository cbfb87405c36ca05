// Original file: proto/payments/v1/payments.proto

import type { Long } from '@grpc/proto-loader';

export interface PayOrder {
  'order_no'?: (string);
  'biz_order_no'?: (string);
  'mch_no'?: (string);
  'app_id'?: (string);
  'title'?: (string);
  'description'?: (string);
  'method'?: (string);
  'limit_pay'?: (string);
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
  'real_amount'?: (number | string | Long);
  /**
   * wait, progress, success, close, cancel, fail, timeout
   */
  'status'?: (string);
  /**
   * not_settle, settled
   */
  'settle_status'?: (string);
  'settle_type'?: (string);
  'settle_time'?: (string);
  'pay_time'?: (string);
  'close_time'?: (string);
  'expired_time'?: (string);
  'attach'?: (string);
  'notify_url'?: (string);
  /**
   * JSON text: {"clabe","bankCode","bankName","beneficiaryName","amount","expiredTime","reference"}
   */
  'pay_body'?: (string);
  'created_at'?: (string);
  /**
   * Increases by one on every status change; callbacks use it to supersede older changes.
   */
  'version'?: (number | string | Long);
  /**
   * SPEI tracking key of the deposit that paid the order; empty until paid, or when the channel has none.
   */
  'clave_rastreo'?: (string);
  /**
   * Who paid, from the paying deposit (CONTRACT section 21; refunds go back there); empty when the channel
   * did not say. payer_bank: the sending bank's 5-digit Banxico code. Internal: not in the merchant's view.
   */
  'payer_account'?: (string);
  'payer_name'?: (string);
  'payer_bank'?: (string);
  'payer_rfc'?: (string);
  /**
   * Banxico's CEP page of the paying deposit, when the channel gave one.
   */
  'cep_url'?: (string);
}

export interface PayOrder__Output {
  'order_no': (string);
  'biz_order_no': (string);
  'mch_no': (string);
  'app_id': (string);
  'title': (string);
  'description': (string);
  'method': (string);
  'limit_pay': (string);
  'amount': (string);
  'fee': (string);
  'real_amount': (string);
  /**
   * wait, progress, success, close, cancel, fail, timeout
   */
  'status': (string);
  /**
   * not_settle, settled
   */
  'settle_status': (string);
  'settle_type': (string);
  'settle_time': (string);
  'pay_time': (string);
  'close_time': (string);
  'expired_time': (string);
  'attach': (string);
  'notify_url': (string);
  /**
   * JSON text: {"clabe","bankCode","bankName","beneficiaryName","amount","expiredTime","reference"}
   */
  'pay_body': (string);
  'created_at': (string);
  /**
   * Increases by one on every status change; callbacks use it to supersede older changes.
   */
  'version': (string);
  /**
   * SPEI tracking key of the deposit that paid the order; empty until paid, or when the channel has none.
   */
  'clave_rastreo': (string);
  /**
   * Who paid, from the paying deposit (CONTRACT section 21; refunds go back there); empty when the channel
   * did not say. payer_bank: the sending bank's 5-digit Banxico code. Internal: not in the merchant's view.
   */
  'payer_account': (string);
  'payer_name': (string);
  'payer_bank': (string);
  'payer_rfc': (string);
  /**
   * Banxico's CEP page of the paying deposit, when the channel gave one.
   */
  'cep_url': (string);
}
