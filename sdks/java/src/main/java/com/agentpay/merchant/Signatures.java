package com.agentpay.merchant;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

/** RSASSA-PKCS1-v1_5 with SHA-256 over the UTF-8 bytes of the canonical string, Base64 (standard, padded). */
public final class Signatures {
  // A signature must be strict Base64: a lenient decoder would accept text the platform never wrote.
  private static final Pattern BASE64 =
      Pattern.compile("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");

  private Signatures() {}

  /** The Base64 signature of {@code object}'s canonical string. */
  public static String sign(Map<String, ?> object, PrivateKey privateKey) {
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(privateKey);
      signer.update(Canonical.of(object).getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign: " + e.getMessage(), e);
    }
  }

  /** Whether {@code signature} is a valid signature of {@code object}'s canonical string; never throws. */
  public static boolean verify(Map<String, ?> object, Object signature, PublicKey publicKey) {
    if (!(signature instanceof String)) return false;
    String text = (String) signature;
    if (text.isEmpty() || !BASE64.matcher(text).matches()) return false;
    try {
      Signature verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(publicKey);
      verifier.update(Canonical.of(object).getBytes(StandardCharsets.UTF_8));
      return verifier.verify(Base64.getDecoder().decode(text));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      // A value the canonical string cannot render, or a signature of the wrong length: not valid.
      return false;
    }
  }
}
