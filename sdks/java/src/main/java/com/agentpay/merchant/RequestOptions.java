package com.agentpay.merchant;

/** Common parameters a caller may set for one request; mchNo, reqTime, nonceStr and sign are filled in. */
public final class RequestOptions {
  String appId;
  String clientIp;
  String nonceStr;
  String traceparent;

  /** Overrides the client's appId for this request. */
  public RequestOptions appId(String appId) {
    this.appId = appId;
    return this;
  }

  /** The paying or requesting end user's IP address (at most 64 characters). */
  public RequestOptions clientIp(String clientIp) {
    this.clientIp = clientIp;
    return this;
  }

  /**
   * Your own nonce (at most 32 characters, unique within 24 h) instead of a random one. A nonce is single
   * use, so a call with your own is never retried.
   */
  public RequestOptions nonceStr(String nonceStr) {
    this.nonceStr = nonceStr;
    return this;
  }

  /** W3C traceparent to continue your own trace; the reply's traceId is then your trace id. */
  public RequestOptions traceparent(String traceparent) {
    this.traceparent = traceparent;
    return this;
  }
}
