package com.agentpay.merchant;

/**
 * No reply, after the retries the client allows: connection refused or reset, DNS failure, or the timeout
 * passed. For pay, transfer and inquire the outcome is then unknown: call again with the same biz number
 * (it is idempotent) or query.
 */
public class AgentpayNetworkException extends AgentpayException {
  private static final long serialVersionUID = 1L;

  private final boolean timedOut;

  public AgentpayNetworkException(String message, boolean timedOut, Throwable cause) {
    super(message, cause);
    this.timedOut = timedOut;
  }

  public boolean timedOut() {
    return timedOut;
  }
}
