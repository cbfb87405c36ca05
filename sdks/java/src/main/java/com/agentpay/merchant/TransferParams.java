package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** POST /gateway/transfer: a payout. */
public final class TransferParams extends Params<TransferParams> {
  /** Your transfer number, 1..100 characters, unique per merchant. */
  public TransferParams bizTransferNo(String bizTransferNo) {
    return set("bizTransferNo", bizTransferNo);
  }

  /** Pesos, 0.01..99,999,999.99, at most 2 decimals. */
  public TransferParams amount(BigDecimal amount) {
    return set("amount", amount);
  }

  /** At most 100 characters. */
  public TransferParams title(String title) {
    return set("title", title);
  }

  /** At most 50 characters. */
  public TransferParams reason(String reason) {
    return set("reason", reason);
  }

  /** {@code spei_transfer}, {@code bank_card}, ... */
  public TransferParams payeeType(String payeeType) {
    return set("payeeType", payeeType);
  }

  /** 1..100 characters. */
  public TransferParams payeeAccount(String payeeAccount) {
    return set("payeeAccount", payeeAccount);
  }

  /** At most 50 characters. */
  public TransferParams payeeName(String payeeName) {
    return set("payeeName", payeeName);
  }

  /** A public 5-digit Banxico code ({@code 40012}); required for bank_card, derived from the CLABE for spei_transfer when absent. */
  public TransferParams payeeCode(String payeeCode) {
    return set("payeeCode", payeeCode);
  }

  /** An extension parameter: its JSON text (at most 2048 characters). */
  public TransferParams extraParam(String json) {
    return set("extraParam", json);
  }

  /** An extension parameter as a JSON object, sent as its JSON text. */
  public TransferParams extraParam(Map<String, ?> object) {
    return setExtraParam(object);
  }

  /** At most 500 characters. */
  public TransferParams attach(String attach) {
    return set("attach", attach);
  }

  /** http(s), at most 200 characters. */
  public TransferParams notifyUrl(String notifyUrl) {
    return set("notifyUrl", notifyUrl);
  }
}
