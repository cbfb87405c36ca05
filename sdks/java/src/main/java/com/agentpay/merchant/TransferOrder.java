package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** A transfer as queryTransferOrder returns it and as a transfer callback carries it. Amounts in pesos. A field the reply leaves out is null. */
public record TransferOrder(
    String bizTransferNo,
    String transferNo,
    BigDecimal amount,
    BigDecimal fee,
    String title,
    String reason,
    String payeeType,
    String payeeAccount,
    String payeeName,
    String payeeCode,
    String status,
    String finishTime,
    String attach,
    String claveRastreo,
    Cep cep,
    String cepUrl) {
  static TransferOrder from(Map<String, Object> m) {
    return new TransferOrder(
        Fields.str(m, "bizTransferNo"),
        Fields.str(m, "transferNo"),
        Fields.amount(m, "amount"),
        Fields.amount(m, "fee"),
        Fields.str(m, "title"),
        Fields.str(m, "reason"),
        Fields.str(m, "payeeType"),
        Fields.str(m, "payeeAccount"),
        Fields.str(m, "payeeName"),
        Fields.str(m, "payeeCode"),
        Fields.str(m, "status"),
        Fields.str(m, "finishTime"),
        Fields.str(m, "attach"),
        Fields.str(m, "claveRastreo"),
        Cep.from(m.get("cep")),
        Fields.str(m, "cepUrl"));
  }
}
