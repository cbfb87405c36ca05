package com.agentpay.merchant;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The canonical string a signature covers. Only the top level drops keys: {@code sign}, a null value and
 * the empty string. The rest are sorted by code point and written {@code key=value}, joined with
 * {@code &}: a string as it is, a number as ECMAScript's {@code String(n)}, a boolean as
 * {@code true}/{@code false}, an object or array as its RFC 8785 canonical JSON, where a nested null
 * stays ({@code "k":null}).
 */
public final class Canonical {
  private Canonical() {}

  /** The canonical string of a signed object (a request, a reply or a callback). */
  public static String of(Map<String, ?> object) {
    List<String> keys = new ArrayList<>();
    for (Map.Entry<String, ?> entry : object.entrySet()) {
      Object value = entry.getValue();
      if (entry.getKey().equals("sign") || value == null || "".equals(value)) continue;
      keys.add(entry.getKey());
    }
    keys.sort(Canonical::byCodePoint);
    StringBuilder out = new StringBuilder();
    for (String key : keys) {
      if (out.length() > 0) out.append('&');
      out.append(key).append('=').append(render(key, object.get(key)));
    }
    return out.toString();
  }

  private static String render(String key, Object value) {
    if (value instanceof String) return (String) value;
    if (value instanceof Number) return EcmaNumber.toString((Number) value);
    if (value instanceof Boolean) return value.toString();
    if (value instanceof Map || value instanceof List) return Json.canonical(value);
    throw new IllegalArgumentException(
        "\"" + key + "\" is a " + value.getClass().getName() + ", not a JSON value");
  }

  /** Code point order; it differs from String.compareTo only where a surrogate meets U+E000..U+FFFF. */
  static int byCodePoint(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) return rank(x) - rank(y);
    }
    return a.length() - b.length();
  }

  private static int rank(char unit) {
    if (unit >= 0xe000) return unit - 0x800;
    if (unit >= 0xd800) return unit + 0x2000;
    return unit;
  }
}
