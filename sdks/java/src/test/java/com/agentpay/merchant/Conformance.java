package com.agentpay.merchant;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the project's tests ask of this SDK, one JSON line per answer, so that the TypeScript side holds it
 * to the signing vectors and to the platform's own implementation:
 * {@code vectors <file>}, {@code numbers} (hex bits of doubles on stdin), {@code jcs} (JSON texts on stdin),
 * {@code surface} (endpoints and reply fields, for the OpenAPI drift check).
 */
public final class Conformance {
  public static void main(String[] args) throws Exception {
    var out = new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8);
    switch (args.length > 0 ? args[0] : "") {
      case "vectors": vectors(Path.of(args[1]), out); break;
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
        System.err.println("usage: Conformance vectors <file> | numbers | jcs | surface");
        System.exit(2);
    }
  }

  private static List<String> stdin() throws Exception {
    List<String> lines = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) if (!line.isBlank()) lines.add(line);
    return lines;
  }

  @SuppressWarnings("unchecked")
  private static void vectors(Path file, java.io.PrintStream out) throws Exception {
    Map<String, Object> root = Json.parseObject(Files.readString(file));
    Map<String, Object> keys = (Map<String, Object>) root.get("keys");
    for (String group : new String[] {"cases", "negative"}) {
      Object list = root.get(group);
      if (list == null) continue;
      for (Object item : (List<Object>) list) {
        Map<String, Object> c = (Map<String, Object>) item;
        Map<String, Object> signer = (Map<String, Object>) keys.get((String) c.get("signer"));
        PrivateKey privateKey = Keys.privateKey((String) signer.get("privateKey"));
        PublicKey publicKey = Keys.publicKey((String) signer.get("publicKey"));
        Map<String, Object> object = (Map<String, Object>) c.get("object");
        Object expectedSign = group.equals("cases") ? c.get("sign") : object.get("sign");
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("group", group);
        answer.put("name", c.get("name"));
        answer.put("canonical", Canonical.of(object));
        answer.put("sign", Signatures.sign(object, privateKey));
        answer.put("verifies", Signatures.verify(object, expectedSign, publicKey));
        out.println(Json.write(answer));
      }
    }
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
          BalanceRecordPage.class
        }) {
      List<Object> names = new ArrayList<>();
      for (RecordComponent rc : type.getRecordComponents()) names.add(rc.getName());
      records.put(type.getSimpleName(), names);
    }
    answer.put("records", records);
    Map<String, Object> params = new LinkedHashMap<>();
    for (Class<?> type :
        new Class<?>[] {
          PayParams.class, CloseParams.class, InquiryParams.class, TransferParams.class, BalanceRecordsParams.class
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
