package com.agentpay.merchant;

/** A reply that is not an API envelope at all (a proxy's error page, an empty body). */
public class AgentpayHttpException extends AgentpayException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String bodyText;

  public AgentpayHttpException(String message, int status, String bodyText) {
    super(message);
    this.status = status;
    this.bodyText = bodyText;
  }

  public int status() {
    return status;
  }

  /** The first 500 characters of the body. */
  public String bodyText() {
    return bodyText;
  }
}
