package com.agentpay.merchant;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.Map;

/**
 * Verifies the callbacks the platform POSTs to a notifyUrl. A callback is signed over every field but
 * {@code sign} ({@code code}, {@code msg}, {@code noticeType}, {@code mchNo}, {@code appId}, {@code data},
 * {@code resTime}, {@code traceId}). Answer a verified one, once stored, with HTTP 200 and the body
 * {@link #SUCCESS}; anything else makes the platform try again later.
 */
public final class Callbacks {
  /** The body that acknowledges a callback. */
  public static final String SUCCESS = "SUCCESS";

  private Callbacks() {}

  /**
   * Verifies a callback body (the raw text, best) with the platform public key and returns it typed.
   * Throws {@link AgentpaySignatureException} when it is not JSON, unsigned, changed, or signed by another
   * key: never act on such a body.
   */
  public static Callback verify(String body, PublicKey platformPublicKey) {
    Map<String, Object> parsed;
    try {
      parsed = Json.parseObject(body);
    } catch (IllegalArgumentException e) {
      throw new AgentpaySignatureException("callback body is not a JSON object", clip(body));
    }
    Object sign = parsed.get("sign");
    if (!(sign instanceof String) || ((String) sign).isEmpty()) {
      throw new AgentpaySignatureException("callback is not signed", clip(body));
    }
    if (!Signatures.verify(parsed, sign, platformPublicKey)) {
      throw new AgentpaySignatureException(
          "callback signature does not verify with the platform public key", clip(body));
    }
    if (!(parsed.get("data") instanceof Map)) {
      // Signed by the platform but not a shape this SDK knows: refuse rather than guess.
      throw new AgentpaySignatureException("callback has no order in data", clip(body));
    }
    return Callback.from(parsed);
  }

  /** {@link #verify(String, PublicKey)} over the raw bytes of a request body (UTF-8). */
  public static Callback verify(byte[] body, PublicKey platformPublicKey) {
    return verify(new String(body, StandardCharsets.UTF_8), platformPublicKey);
  }

  static String clip(String s) {
    if (s == null) return "";
    return s.length() <= 500 ? s : s.substring(0, 500);
  }
}
