package com.agentpay.merchant;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What `run-tests` runs (sdks/README.md): every signing vector of the vectors file (`vector: <name>`,
 * `negative: <name>`), then the unit tests of {@link SdkTest}, one JSON line each; exit 0 only when all
 * pass. `run-tests endpoints` prints the endpoint table: operationId → {path, params, required}.
 */
public final class RunTests {
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("endpoints")) {
      Map<String, Object> table = new LinkedHashMap<>();
      for (Endpoint e : Endpoint.values()) {
        Map<String, Object> shape = new LinkedHashMap<>();
        shape.put("path", e.path());
        shape.put("params", e.params());
        shape.put("required", e.required());
        table.put(e.operationId(), shape);
      }
      SdkTest.OUT.println(Json.write(table));
      return;
    }
    Path vectors = Path.of(args.length > 0 ? args[0] : "../vectors/signing.json");
    vectors(Json.parseObject(Files.readString(vectors)));
    int failed = SdkTest.runAll();
    System.err.println(failed == 0 ? "all passed" : failed + " failed: " + SdkTest.failures);
    System.exit(failed == 0 ? 0 : 1);
  }

  @SuppressWarnings("unchecked")
  private static void vectors(Map<String, Object> root) {
    Map<String, Object> keys = (Map<String, Object>) root.get("keys");
    for (Object item : (List<Object>) root.get("cases")) {
      Map<String, Object> c = (Map<String, Object>) item;
      SdkTest.test("vector: " + c.get("name"), () -> {
        Map<String, Object> signer = (Map<String, Object>) keys.get((String) c.get("signer"));
        Map<String, Object> object = objectOf(c);
        SdkTest.eq(c.get("canonical"), Canonical.of(object));
        SdkTest.eq(c.get("sign"), Signatures.sign(object, Keys.privateKey((String) signer.get("privateKey"))));
        PublicKey publicKey = Keys.publicKey((String) signer.get("publicKey"));
        SdkTest.check(Signatures.verify(object, c.get("sign"), publicKey), "the vector's signature verifies");
      });
    }
    for (Object item : (List<Object>) root.get("negative")) {
      Map<String, Object> c = (Map<String, Object>) item;
      SdkTest.test("negative: " + c.get("name"), () -> {
        Map<String, Object> signer = (Map<String, Object>) keys.get((String) c.get("signer"));
        Map<String, Object> object = objectOf(c);
        PublicKey publicKey = Keys.publicKey((String) signer.get("publicKey"));
        SdkTest.check(!Signatures.verify(object, object.get("sign"), publicKey), "a negative case does not verify");
        PrivateKey unused = Keys.privateKey((String) signer.get("privateKey"));
        SdkTest.check(unused != null, "its signer's key loads");
      });
    }
  }

  /** The case's object as this SDK reads it: parsed from its JSON text when it has one. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> objectOf(Map<String, Object> c) {
    Object json = c.get("json");
    return json instanceof String ? Json.parseObject((String) json) : (Map<String, Object>) c.get("object");
  }
}
