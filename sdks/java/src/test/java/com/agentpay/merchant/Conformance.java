package com.agentpay.merchant;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the project's tests ask of this SDK, one JSON line per answer, so that the TypeScript side holds it
 * to the platform's own implementation ({@link RunTests} covers the signing vectors):
 * {@code numbers} (hex bits of doubles on stdin), {@code jcs} (JSON texts on stdin),
 * {@code surface} (endpoints and reply fields, for the OpenAPI drift check).
 */
public final class Conformance {
  public static void main(String[] args) throws Exception {
    var out = new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8);
    switch (args.length > 0 ? args[0] : "") {
      case "numbers":
        for (String line : stdin()) {
          double d = Double.longBitsToDouble(Long.parseUnsignedLong(line.trim(), 16));
          out.println(EcmaNumber.toString(d));
        }
        break;
      case "jcs":
        for (String line : stdin()) out.println(Json.write(Json.canonical(Json.parse(line))));
        break;
      case "surface": surface(out); break;
      default:
        System.err.println("usage: Conformance numbers | jcs | surface");
        System.exit(2);
    }
  }

  private static List<String> stdin() throws Exception {
    List<String> lines = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) if (!line.isBlank()) lines.add(line);
    return lines;
  }

  private static void surface(java.io.PrintStream out) {
    Map<String, Object> answer = new LinkedHashMap<>();
    List<Object> endpoints = new ArrayList<>();
    for (Endpoint e : Endpoint.values()) endpoints.add(e.path());
    answer.put("endpoints", endpoints);
    Map<String, Object> records = new LinkedHashMap<>();
    for (Class<?> type :
        new Class<?>[] {
          OptionItem.class, PayResult.class, PayBody.class, PayOrder.class, InquiryResult.class,
          TransferResult.class, TransferOrder.class, SyncResult.class, Balance.class, BalanceRecord.class,
          BalanceRecordPage.class, RefundResult.class, Refund.class, Cep.class
        }) {
      List<Object> names = new ArrayList<>();
      for (RecordComponent rc : type.getRecordComponents()) names.add(rc.getName());
      records.put(type.getSimpleName(), names);
    }
    answer.put("records", records);
    Map<String, Object> params = new LinkedHashMap<>();
    for (Class<?> type :
        new Class<?>[] {
          PayParams.class, CloseParams.class, InquiryParams.class, TransferParams.class, BalanceRecordsParams.class,
          RefundParams.class
        }) {
      List<Object> names = new ArrayList<>();
      for (var m : type.getDeclaredMethods()) {
        if (java.lang.reflect.Modifier.isPublic(m.getModifiers()) && !names.contains(m.getName())) {
          names.add(m.getName());
        }
      }
      params.put(type.getSimpleName(), names);
    }
    answer.put("params", params);
    out.println(Json.write(answer));
  }
}
