package com.agentpay.merchant;

/** A verified reply whose code is not 0: {@link Envelope#unwrap()} throws it, carrying the code and msg. */
public class AgentpayApiException extends AgentpayException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String msg;
  private final String traceId;

  public AgentpayApiException(int code, String msg, String traceId) {
    super("agentpay " + code + ": " + msg + " (traceId " + traceId + ")");
    this.code = code;
    this.msg = msg;
    this.traceId = traceId;
  }

  /** The envelope code (see {@link ResultCode}). */
  public int code() {
    return code;
  }

  public String msg() {
    return msg;
  }

  /** Quote it to support. */
  public String traceId() {
    return traceId;
  }
}
