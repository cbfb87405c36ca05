package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** What the payer needs, from {@link PayResult#payBody()}: send {@code amount} by SPEI to {@code clabe}. A field the reply leaves out is null. */
public record PayBody(
    String clabe,
    String bankCode,
    String bankName,
    String beneficiaryName,
    BigDecimal amount,
    String expiredTime,
    String reference,
    String cashierUrl) {
  static PayBody from(Map<String, Object> m) {
    return new PayBody(
        Fields.str(m, "clabe"),
        Fields.str(m, "bankCode"),
        Fields.str(m, "bankName"),
        Fields.str(m, "beneficiaryName"),
        Fields.amount(m, "amount"),
        Fields.str(m, "expiredTime"),
        Fields.str(m, "reference"),
        Fields.str(m, "cashierUrl"));
  }
}
