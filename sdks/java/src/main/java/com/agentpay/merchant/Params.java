package com.agentpay.merchant;

import java.util.LinkedHashMap;
import java.util.Map;

/** Business parameters of a request, set through the typed setters of a subclass; null leaves one out. */
public abstract class Params<P extends Params<P>> {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  @SuppressWarnings("unchecked")
  protected P set(String key, Object value) {
    if (value == null) fields.remove(key);
    else fields.put(key, value);
    return (P) this;
  }

  /** An extension parameter as a JSON object, sent as its JSON text (at most 2048 characters). */
  protected P setExtraParam(Map<String, ?> value) {
    return set("extraParam", value == null ? null : Json.write(value));
  }

  /** The parameters as they are signed and sent (the common parameters are added by the client). */
  public Map<String, Object> toMap() {
    return new LinkedHashMap<>(fields);
  }
}
