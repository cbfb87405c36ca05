package com.agentpay.merchant;

import java.util.Map;

/** {@code data} of pay: the order and, in {@code payBody}, where the payer sends the money. A field the reply leaves out is null. */
public record PayResult(
    String bizOrderNo,
    String orderNo,
    String status,
    String payBody) {
  static PayResult from(Map<String, Object> m) {
    return new PayResult(
        Fields.str(m, "bizOrderNo"),
        Fields.str(m, "orderNo"),
        Fields.str(m, "status"),
        Fields.str(m, "payBody"));
  }

  /** The parsed {@code payBody}: the CLABE, the amount and, when present, the hosted payment page. */
  public PayBody parsedPayBody() {
    if (payBody == null) throw new AgentpayException("the reply has no payBody");
    Map<String, Object> body = Json.parseObject(payBody);
    if (!(body.get("clabe") instanceof String)) throw new AgentpayException("payBody has no clabe");
    return PayBody.from(body);
  }
}
