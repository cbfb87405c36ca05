package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** A payment order as queryPayOrder returns it and as a payment callback carries it. Amounts in pesos. A field the reply leaves out is null. */
public record PayOrder(
    String bizOrderNo,
    String orderNo,
    String title,
    String description,
    String method,
    String limitPay,
    BigDecimal amount,
    BigDecimal fee,
    BigDecimal realAmount,
    String status,
    String settleStatus,
    String settleType,
    String settleTime,
    String payTime,
    String closeTime,
    String expiredTime,
    String attach,
    String claveRastreo,
    Cep cep,
    String cepUrl) {
  static PayOrder from(Map<String, Object> m) {
    return new PayOrder(
        Fields.str(m, "bizOrderNo"),
        Fields.str(m, "orderNo"),
        Fields.str(m, "title"),
        Fields.str(m, "description"),
        Fields.str(m, "method"),
        Fields.str(m, "limitPay"),
        Fields.amount(m, "amount"),
        Fields.amount(m, "fee"),
        Fields.amount(m, "realAmount"),
        Fields.str(m, "status"),
        Fields.str(m, "settleStatus"),
        Fields.str(m, "settleType"),
        Fields.str(m, "settleTime"),
        Fields.str(m, "payTime"),
        Fields.str(m, "closeTime"),
        Fields.str(m, "expiredTime"),
        Fields.str(m, "attach"),
        Fields.str(m, "claveRastreo"),
        Cep.from(m.get("cep")),
        Fields.str(m, "cepUrl"));
  }
}
