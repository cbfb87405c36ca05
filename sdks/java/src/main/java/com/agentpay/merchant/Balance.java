package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** {@code data} of balance: the MXN balance in three parts, in pesos; none is ever below zero. A field the reply leaves out is null. */
public record Balance(
    String currency,
    BigDecimal available,
    BigDecimal pending,
    BigDecimal frozen) {
  static Balance from(Map<String, Object> m) {
    return new Balance(
        Fields.str(m, "currency"),
        Fields.amount(m, "available"),
        Fields.amount(m, "pending"),
        Fields.amount(m, "frozen"));
  }
}
