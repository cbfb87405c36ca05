package com.agentpay.merchant;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Reads typed fields from a parsed JSON object; a missing field reads as null. */
final class Fields {
  private Fields() {}

  static String str(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v == null ? null : v instanceof String ? (String) v : Json.write(v);
  }

  /** An amount in pesos, exactly as the reply wrote it (100.5 → 100.5). */
  static BigDecimal amount(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v instanceof Number ? new BigDecimal(EcmaNumber.toString((Number) v)) : null;
  }

  static Boolean bool(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v instanceof Boolean ? (Boolean) v : null;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    if (!(value instanceof Map)) throw new AgentpayException("expected a JSON object, got " + Json.write(value));
    return (Map<String, Object>) value;
  }

  static <T> List<T> list(Object value, Function<Map<String, Object>, T> item) {
    if (!(value instanceof List)) throw new AgentpayException("expected a JSON array, got " + Json.write(value));
    List<T> out = new ArrayList<>();
    for (Object o : (List<?>) value) out.add(item.apply(object(o)));
    return List.copyOf(out);
  }
}
