package com.agentpay.merchant;

import java.math.BigDecimal;

/** Amounts: the API speaks pesos with at most two decimals; keep money in integer centavos and convert at the edge. */
public final class Money {
  private Money() {}

  /** Pesos to integer centavos ({@code 100.5} → {@code 10050}); refuses more than two decimals or a negative. */
  public static long toCentavos(BigDecimal pesos) {
    if (pesos.signum() < 0) throw new ArithmeticException(pesos + " is negative");
    return pesos.movePointRight(2).longValueExact();
  }

  /** Integer centavos to pesos ({@code 10050} → {@code 100.50}). */
  public static BigDecimal toPesos(long centavos) {
    return BigDecimal.valueOf(centavos, 2);
  }
}
