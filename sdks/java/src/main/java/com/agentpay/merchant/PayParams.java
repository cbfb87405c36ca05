package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.Map;

/** POST /gateway/pay: a virtual-account (CLABE) payment order. */
public final class PayParams extends Params<PayParams> {
  /** Your order number, 1..100 characters, unique per merchant: the same parameters again answer the same order. */
  public PayParams bizOrderNo(String bizOrderNo) {
    return set("bizOrderNo", bizOrderNo);
  }

  /** 1..100 characters. */
  public PayParams title(String title) {
    return set("title", title);
  }

  /** At most 50 characters. */
  public PayParams description(String description) {
    return set("description", description);
  }

  /** {@code yyyy-MM-dd HH:mm:ss}, in the future and within 30 days; default 24 h after creation. */
  public PayParams expiredTime(String expiredTime) {
    return set("expiredTime", expiredTime);
  }

  /** {@code mex_virtual_account}. */
  public PayParams method(String method) {
    return set("method", method);
  }

  /** At most 128 characters. */
  public PayParams limitPay(String limitPay) {
    return set("limitPay", limitPay);
  }

  /** Pesos, 0.01..99,999,999.99, at most 2 decimals. */
  public PayParams amount(BigDecimal amount) {
    return set("amount", amount);
  }

  /** An extension parameter: its JSON text (at most 2048 characters). */
  public PayParams extraParam(String json) {
    return set("extraParam", json);
  }

  /** An extension parameter as a JSON object, sent as its JSON text. */
  public PayParams extraParam(Map<String, ?> object) {
    return setExtraParam(object);
  }

  /** At most 500 characters, returned unchanged in queries and callbacks. */
  public PayParams attach(String attach) {
    return set("attach", attach);
  }

  /** http(s), at most 200 characters. */
  public PayParams returnUrl(String returnUrl) {
    return set("returnUrl", returnUrl);
  }

  /** http(s), at most 200 characters. */
  public PayParams quitUrl(String quitUrl) {
    return set("quitUrl", quitUrl);
  }

  /** http(s), at most 200 characters: where status-change callbacks are POSTed. */
  public PayParams notifyUrl(String notifyUrl) {
    return set("notifyUrl", notifyUrl);
  }
}
