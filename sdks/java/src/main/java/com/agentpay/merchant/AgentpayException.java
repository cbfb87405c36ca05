package com.agentpay.merchant;

/** Base class of everything the SDK throws. */
public class AgentpayException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AgentpayException(String message) {
    super(message);
  }

  public AgentpayException(String message, Throwable cause) {
    super(message, cause);
  }
}
