package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** A refund as queryRefund returns it and as a refund callback carries it. Amounts in pesos. A field the reply leaves out is null. */
public record Refund(
    String refundNo,
    String bizRefundNo,
    String orderNo,
    String bizOrderNo,
    BigDecimal amount,
    BigDecimal fee,
    String reason,
    String payeeType,
    String payeeAccount,
    String payeeName,
    String payeeCode,
    String status,
    String finishTime,
    String claveRastreo,
    Cep cep,
    String cepUrl) {
  static Refund from(Map<String, Object> m) {
    return new Refund(
        Fields.str(m, "refundNo"),
        Fields.str(m, "bizRefundNo"),
        Fields.str(m, "orderNo"),
        Fields.str(m, "bizOrderNo"),
        Fields.amount(m, "amount"),
        Fields.amount(m, "fee"),
        Fields.str(m, "reason"),
        Fields.str(m, "payeeType"),
        Fields.str(m, "payeeAccount"),
        Fields.str(m, "payeeName"),
        Fields.str(m, "payeeCode"),
        Fields.str(m, "status"),
        Fields.str(m, "finishTime"),
        Fields.str(m, "claveRastreo"),
        Cep.from(m.get("cep")),
        Fields.str(m, "cepUrl"));
  }
}
