package com.agentpay.merchant;

/**
 * A reply or callback that is unsigned or whose signature does not verify with the platform public key.
 * Never act on its content: it did not come from the platform, or was changed on the way.
 */
public class AgentpaySignatureException extends AgentpayException {
  private static final long serialVersionUID = 1L;

  private final String body;

  public AgentpaySignatureException(String message, String body) {
    super(message);
    this.body = body;
  }

  /** What was received (at most 500 characters), for logging. */
  public String body() {
    return body;
  }
}
