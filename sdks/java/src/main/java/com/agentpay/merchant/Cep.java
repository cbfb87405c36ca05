package com.agentpay.merchant;

import java.util.Map;

/**
 * The six facts Banxico's CEP page (https://www.banxico.org.mx/cep/) looks a SPEI payment up by: the
 * operation day dd-MM-yyyy, the tracking key, the sending and receiving banks' 5-digit codes, the receiving
 * account and the amount with two decimals (text).
 */
public record Cep(String fecha, String claveRastreo, String emisor, String receptor, String cuenta, String monto) {
  /** The facts of a reply's {@code cep} field; null when the reply has none. */
  static Cep from(Object value) {
    if (value == null) return null;
    Map<String, Object> m = Fields.object(value);
    return new Cep(
        Fields.str(m, "fecha"),
        Fields.str(m, "claveRastreo"),
        Fields.str(m, "emisor"),
        Fields.str(m, "receptor"),
        Fields.str(m, "cuenta"),
        Fields.str(m, "monto"));
  }
}
