// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

export interface UpstreamPayment {
  /**
   * wait, success, close, fail (already translated from the channel's vocabulary)
   */
  'status'?: (string);
  'paid_amount'?: (number | string | Long);
  'paid_at'?: (string);
  /**
   * SPEI tracking key of the deposit that paid the order; empty until paid or when the channel has none.
   */
  'clave_rastreo'?: (string);
  /**
   * Banxico's CEP page of the paying deposit, when the channel gives one.
   */
  'cep_url'?: (string);
}

export interface UpstreamPayment__Output {
  /**
   * wait, success, close, fail (already translated from the channel's vocabulary)
   */
  'status': (string);
  'paid_amount': (string);
  'paid_at': (string);
  /**
   * SPEI tracking key of the deposit that paid the order; empty until paid or when the channel has none.
   */
  'clave_rastreo': (string);
  /**
   * Banxico's CEP page of the paying deposit, when the channel gives one.
   */
  'cep_url': (string);
}
