package com.agentpay.merchant;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers as ECMAScript's {@code String(n)} writes them: the shortest decimal that reads back as the same
 * double, in the layout of Number::toString ({@code 5}, {@code 100.5}, {@code 1e-7}, {@code 1e+21}). The
 * platform signs and verifies over this text; {@link Double#toString} gives {@code 5.0} and {@code 1.0E-7}.
 */
public final class EcmaNumber {
  private EcmaNumber() {}

  /** {@code value} as ECMAScript's {@code String(value)}; throws for NaN and the infinities (no JSON form). */
  public static String toString(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(value + " has no JSON form");
    }
    if (value == 0) return "0"; // -0 too, as in ECMAScript
    if (value < 0) return "-" + toString(-value);
    BigDecimal shortest = shortest(value);
    BigDecimal stripped = shortest.stripTrailingZeros();
    String digits = stripped.unscaledValue().toString();
    int k = digits.length();
    int n = k - stripped.scale(); // value = 0.digits × 10^n
    StringBuilder out = new StringBuilder();
    if (k <= n && n <= 21) {
      out.append(digits);
      for (int i = 0; i < n - k; i++) out.append('0');
    } else if (0 < n && n <= 21) {
      out.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.");
      for (int i = 0; i < -n; i++) out.append('0');
      out.append(digits);
    } else {
      out.append(digits.charAt(0));
      if (k > 1) out.append('.').append(digits, 1, k);
      int e = n - 1;
      out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
    }
    return out.toString();
  }

  /** {@code value} (a Number of any kind) as the double a JSON reader would make of it, in ECMAScript text. */
  public static String toString(Number value) {
    return toString(toDouble(value));
  }

  /** The double a JSON parser (JavaScript's included) reads from this number's decimal text. */
  public static double toDouble(Number value) {
    if (value instanceof Double || value instanceof Float) return value.doubleValue();
    // parseDouble rounds the exact decimal text correctly, as JSON.parse does on the platform's side.
    if (value instanceof BigDecimal) return Double.parseDouble(((BigDecimal) value).toString());
    return Double.parseDouble(value.toString());
  }

  // Among the decimals with the fewest significant digits that read back as `value`, the one nearest it
  // (ties to an even last digit): ECMAScript's Number::toString, step 5.
  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
      BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
      boolean downOk = readsBack(down, value);
      boolean upOk = readsBack(up, value);
      if (downOk && upOk && down.compareTo(up) != 0) {
        int cmp = exact.subtract(down).compareTo(up.subtract(exact));
        if (cmp < 0) return down;
        if (cmp > 0) return up;
        return down.unscaledValue().testBit(0) ? up : down;
      }
      if (downOk) return down;
      if (upOk) return up;
    }
    return exact.round(MathContext.DECIMAL64); // not reached: 17 digits always read back
  }

  private static boolean readsBack(BigDecimal candidate, double value) {
    return Double.parseDouble(candidate.toString()) == value;
  }
}
