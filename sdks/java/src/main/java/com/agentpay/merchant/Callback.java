package com.agentpay.merchant;

import java.util.Collections;
import java.util.Map;

/**
 * A verified callback: a payment order's ({@link #isPayOrder()}, data carries {@code orderNo}) or a
 * transfer's ({@link #isTransfer()}, data carries {@code transferNo}). The same change may arrive more than
 * once: store it idempotently on the order number and status.
 */
public record Callback(
    int code,
    String msg,
    String noticeType,
    String mchNo,
    String appId,
    String resTime,
    String traceId,
    Map<String, Object> data) {
  static Callback from(Map<String, Object> m) {
    Object code = m.get("code");
    return new Callback(
        code instanceof Number ? ((Number) code).intValue() : -1,
        Fields.str(m, "msg"),
        Fields.str(m, "noticeType"),
        Fields.str(m, "mchNo"),
        Fields.str(m, "appId"),
        Fields.str(m, "resTime"),
        Fields.str(m, "traceId"),
        Collections.unmodifiableMap(Fields.object(m.get("data"))));
  }

  public boolean isPayOrder() {
    return data.get("orderNo") instanceof String;
  }

  public boolean isTransfer() {
    return data.get("transferNo") instanceof String;
  }

  /** The payment order this callback carries; throws when it is a transfer's. */
  public PayOrder payOrder() {
    if (!isPayOrder()) throw new AgentpayException("not a payment order callback");
    return PayOrder.from(data);
  }

  /** The transfer this callback carries; throws when it is a payment order's. */
  public TransferOrder transferOrder() {
    if (!isTransfer()) throw new AgentpayException("not a transfer callback");
    return TransferOrder.from(data);
  }
}
