// Original file: proto/events/v1/events.proto

import type { Long } from '@grpc/proto-loader';

/**
 * What a channel reports about a pay order's virtual account.
 */
export interface PaymentNotice {
  'order_no'?: (string);
  /**
   * success, fail or close
   */
  'status'?: (string);
  /**
   * Centavos received; 0 when the channel did not say.
   */
  'paid_amount'?: (number | string | Long);
  /**
   * When the money arrived, by the channel's clock; empty when it did not say.
   */
  'paid_at'?: (string);
  /**
   * SPEI tracking key of the paying deposit; empty when the channel has none.
   */
  'clave_rastreo'?: (string);
  /**
   * Who paid, as SPEI reported the deposit (CONTRACT section 21: a refund goes back there); empty when the
   * channel did not say. payer_bank is the sending bank's 5-digit Banxico code.
   */
  'payer_account'?: (string);
  'payer_name'?: (string);
  'payer_bank'?: (string);
  'payer_rfc'?: (string);
  /**
   * Banxico's CEP page of the deposit, when the channel gives one.
   */
  'cep_url'?: (string);
}

/**
 * What a channel reports about a pay order's virtual account.
 */
export interface PaymentNotice__Output {
  'order_no': (string);
  /**
   * success, fail or close
   */
  'status': (string);
  /**
   * Centavos received; 0 when the channel did not say.
   */
  'paid_amount': (string);
  /**
   * When the money arrived, by the channel's clock; empty when it did not say.
   */
  'paid_at': (string);
  /**
   * SPEI tracking key of the paying deposit; empty when the channel has none.
   */
  'clave_rastreo': (string);
  /**
   * Who paid, as SPEI reported the deposit (CONTRACT section 21: a refund goes back there); empty when the
   * channel did not say. payer_bank is the sending bank's 5-digit Banxico code.
   */
  'payer_account': (string);
  'payer_name': (string);
  'payer_bank': (string);
  'payer_rfc': (string);
  /**
   * Banxico's CEP page of the deposit, when the channel gives one.
   */
  'cep_url': (string);
}
