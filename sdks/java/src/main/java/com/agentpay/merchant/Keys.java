package com.agentpay.merchant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RSA keys from PEM text: PKCS#8 or PKCS#1 private keys, SPKI or PKCS#1 public keys, 2048 bits or more. */
public final class Keys {
  private static final int MIN_RSA_BITS = 2048;
  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
  // AlgorithmIdentifier of rsaEncryption with NULL parameters, for wrapping PKCS#1 keys.
  private static final byte[] RSA_ALGORITHM = {
    0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
  };

  private Keys() {}

  /** The merchant's private key from PEM text ({@code BEGIN PRIVATE KEY} or {@code BEGIN RSA PRIVATE KEY}). */
  public static PrivateKey privateKey(String pem) {
    Matcher m = pem(pem, "privateKey");
    byte[] der = Base64.getMimeDecoder().decode(m.group(2));
    byte[] pkcs8;
    switch (m.group(1)) {
      case "PRIVATE KEY": pkcs8 = der; break;
      // PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING { RSAPrivateKey } }
      case "RSA PRIVATE KEY": pkcs8 = sequence(concat(new byte[] {0x02, 0x01, 0x00}, RSA_ALGORITHM, tlv(0x04, der))); break;
      default: throw new IllegalArgumentException("privateKey: expected a private key, got " + m.group(1));
    }
    try {
      return checked(KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8)), "privateKey");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("privateKey: not an RSA private key", e);
    }
  }

  /** A public key (the platform's) from PEM text ({@code BEGIN PUBLIC KEY} or {@code BEGIN RSA PUBLIC KEY}). */
  public static PublicKey publicKey(String pem) {
    Matcher m = pem(pem, "platformPublicKey");
    byte[] der = Base64.getMimeDecoder().decode(m.group(2));
    byte[] spki;
    switch (m.group(1)) {
      case "PUBLIC KEY": spki = der; break;
      // SubjectPublicKeyInfo { rsaEncryption, BIT STRING { RSAPublicKey } }
      case "RSA PUBLIC KEY": spki = sequence(concat(RSA_ALGORITHM, tlv(0x03, concat(new byte[] {0}, der)))); break;
      default:
        // Deriving the public half would hide a mix-up of files.
        throw new IllegalArgumentException("platformPublicKey: expected a public key, got " + m.group(1));
    }
    try {
      return checked(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(spki)), "platformPublicKey");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("platformPublicKey: not an RSA public key", e);
    }
  }

  /** {@link #privateKey(String)} from a PEM file. */
  public static PrivateKey privateKey(Path pemFile) {
    return privateKey(read(pemFile));
  }

  /** {@link #publicKey(String)} from a PEM file. */
  public static PublicKey publicKey(Path pemFile) {
    return publicKey(read(pemFile));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static Matcher pem(String text, String what) {
    Matcher m = PEM.matcher(text == null ? "" : text);
    if (!m.find()) throw new IllegalArgumentException(what + ": not a PEM key");
    return m;
  }

  private static <K extends java.security.Key> K checked(K key, String what) {
    int bits = ((RSAKey) key).getModulus().bitLength();
    if (bits < MIN_RSA_BITS) {
      throw new IllegalArgumentException(what + ": RSA-" + bits + " is too short, at least 2048 bits");
    }
    return key;
  }

  private static byte[] sequence(byte[] content) {
    return tlv(0x30, content);
  }

  private static byte[] tlv(int tag, byte[] content) {
    int n = content.length;
    byte[] length;
    if (n < 0x80) length = new byte[] {(byte) n};
    else if (n < 0x100) length = new byte[] {(byte) 0x81, (byte) n};
    else if (n < 0x10000) length = new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
    else length = new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    return concat(new byte[] {(byte) tag}, length, content);
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) n += p.length;
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
