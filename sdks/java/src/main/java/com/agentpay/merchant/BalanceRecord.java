package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** One movement of the balance; the three balances are the ones right after it. A field the reply leaves out is null. */
public record BalanceRecord(
    String recordNo,
    String type,
    String orderNo,
    String bizOrderNo,
    String transferNo,
    String bizTransferNo,
    BigDecimal amount,
    BigDecimal fee,
    BigDecimal availableChange,
    BigDecimal pendingChange,
    BigDecimal frozenChange,
    BigDecimal availableBalance,
    BigDecimal pendingBalance,
    BigDecimal frozenBalance,
    String remark,
    String createTime) {
  static BalanceRecord from(Map<String, Object> m) {
    return new BalanceRecord(
        Fields.str(m, "recordNo"),
        Fields.str(m, "type"),
        Fields.str(m, "orderNo"),
        Fields.str(m, "bizOrderNo"),
        Fields.str(m, "transferNo"),
        Fields.str(m, "bizTransferNo"),
        Fields.amount(m, "amount"),
        Fields.amount(m, "fee"),
        Fields.amount(m, "availableChange"),
        Fields.amount(m, "pendingChange"),
        Fields.amount(m, "frozenChange"),
        Fields.amount(m, "availableBalance"),
        Fields.amount(m, "pendingBalance"),
        Fields.amount(m, "frozenBalance"),
        Fields.str(m, "remark"),
        Fields.str(m, "createTime"));
  }
}
