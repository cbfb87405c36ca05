package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** {@code data} of refund. A field the reply leaves out is null. */
public record RefundResult(String refundNo, String bizRefundNo, String orderNo, BigDecimal amount, String status) {
  static RefundResult from(Map<String, Object> m) {
    return new RefundResult(
        Fields.str(m, "refundNo"),
        Fields.str(m, "bizRefundNo"),
        Fields.str(m, "orderNo"),
        Fields.amount(m, "amount"),
        Fields.str(m, "status"));
  }
}
