package com.agentpay.merchant;

import java.util.Collections;
import java.util.Map;

/**
 * A verified reply: {@code code} 0 is success, any other code a business or request failure (then
 * {@code data} is null). The client has checked its signature before you see it.
 */
public final class Envelope<T> {
  private final int code;
  private final String msg;
  private final T data;
  private final String resTime;
  private final String traceId;
  private final Map<String, Object> raw;

  Envelope(int code, String msg, T data, String resTime, String traceId, Map<String, Object> raw) {
    this.code = code;
    this.msg = msg;
    this.data = data;
    this.resTime = resTime;
    this.traceId = traceId;
    this.raw = Collections.unmodifiableMap(raw);
  }

  public int code() {
    return code;
  }

  public String msg() {
    return msg;
  }

  /** The payload; null on a failure and on a successful close. */
  public T data() {
    return data;
  }

  public String resTime() {
    return resTime;
  }

  /** W3C trace id of the request: quote it to support. */
  public String traceId() {
    return traceId;
  }

  /** The reply as received (its sign included), for logging or fields this SDK does not know yet. */
  public Map<String, Object> raw() {
    return raw;
  }

  public boolean isSuccess() {
    return code == ResultCode.SUCCESS;
  }

  /** {@code data} when the code is 0; otherwise throws {@link AgentpayApiException} with the code and msg. */
  public T unwrap() {
    if (code != ResultCode.SUCCESS) throw new AgentpayApiException(code, msg, traceId);
    return data;
  }

  @Override
  public String toString() {
    return "Envelope{code=" + code + ", msg=" + msg + ", traceId=" + traceId + ", data=" + data + "}";
  }
}
