package com.agentpay.merchant;

import com.sun.net.httpserver.HttpServer;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The SDK's unit tests, on the JDK alone (no JUnit: Maven Central is not needed to run them). Each test
 * prints "ok <name>" or "FAIL <name>: why"; the exit status is the number of failures (capped at 1).
 */
public final class SdkTest {
  static final List<String> failures = new ArrayList<>();
  private static KeyPair merchant;
  private static KeyPair platform;

  interface Body {
    void run() throws Exception;
  }

  /** Runs one test and prints its line of the report: {"name","ok"} or {"name","ok":false,"error"}. */
  static void test(String name, Body body) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("name", name);
    try {
      body.run();
      line.put("ok", true);
    } catch (Throwable t) {
      failures.add(name);
      line.put("ok", false);
      line.put("error", String.valueOf(t));
    }
    OUT.println(Json.write(line));
  }

  static final java.io.PrintStream OUT = new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8);

  static void eq(Object expected, Object actual) {
    if (expected == null ? actual != null : !expected.equals(actual)) {
      throw new AssertionError("expected <" + expected + "> but was <" + actual + ">");
    }
  }

  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  static <E extends Throwable> E throwsA(Class<E> type, Body body) throws Exception {
    try {
      body.run();
    } catch (Throwable t) {
      if (type.isInstance(t)) return type.cast(t);
      throw new AssertionError("expected " + type.getSimpleName() + " but got " + t, t);
    }
    throw new AssertionError("expected " + type.getSimpleName() + ", nothing thrown");
  }

  public static void main(String[] args) throws Exception {
    int failed = runAll();
    System.err.println(failed == 0 ? "all passed" : failed + " failed: " + failures);
    System.exit(failed == 0 ? 0 : 1);
  }

  /** Runs every unit test, printing one report line each; answers how many failed. */
  static int runAll() throws Exception {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
    gen.initialize(2048);
    merchant = gen.generateKeyPair();
    platform = gen.generateKeyPair();

    numbers();
    canonical();
    keys();
    money();
    callbacks();
    client();
    endpoints();
    return failures.size();
  }

  static void endpoints() {
    test("each endpoint's params are exactly what its typed call's parameter class can set", () -> {
      Map<Endpoint, Class<?>> classes = Map.of(
          Endpoint.PAY, PayParams.class,
          Endpoint.CLOSE, CloseParams.class,
          Endpoint.INQUIRE, InquiryParams.class,
          Endpoint.TRANSFER, TransferParams.class,
          Endpoint.BALANCE_RECORDS, BalanceRecordsParams.class);
      for (Map.Entry<Endpoint, Class<?>> e : classes.entrySet()) {
        java.util.TreeSet<String> setters = new java.util.TreeSet<>();
        for (var m : e.getValue().getDeclaredMethods()) {
          if (java.lang.reflect.Modifier.isPublic(m.getModifiers())) setters.add(m.getName());
        }
        eq(new java.util.TreeSet<>(e.getKey().params()), setters);
      }
      eq(List.of("orderNo", "bizOrderNo"), Endpoint.QUERY_PAY_ORDER.params());
      eq(List.of("transferNo", "bizTransferNo"), Endpoint.QUERY_TRANSFER_ORDER.params());
      eq(List.of("payeeType"), Endpoint.PAYEE_CODES.params());
    });
  }

  static void numbers() {
    test("numbers are written as ECMAScript String(n), not Double.toString", () -> {
      eq("5", EcmaNumber.toString(5.0));
      eq("100", EcmaNumber.toString(100.0));
      eq("100.5", EcmaNumber.toString(100.5));
      eq("0.01", EcmaNumber.toString(0.01));
      eq("1e-7", EcmaNumber.toString(1.0e-7));
      eq("1.5e-7", EcmaNumber.toString(1.5e-7));
      eq("0.000001", EcmaNumber.toString(0.000001));
      eq("100000000000000000000", EcmaNumber.toString(1e20));
      eq("1e+21", EcmaNumber.toString(1e21));
      eq("0.30000000000000004", EcmaNumber.toString(0.1 + 0.2));
      eq("99999999.99", EcmaNumber.toString(99999999.99));
      eq("-20", EcmaNumber.toString(-20.0));
      eq("0", EcmaNumber.toString(-0.0));
      eq("5e-324", EcmaNumber.toString(Double.MIN_VALUE));
      eq("1.7976931348623157e+308", EcmaNumber.toString(Double.MAX_VALUE));
      // Java 17's Double.toString is not always shortest (JDK-4511638); 2e23 reads 2.0E23 there too.
      eq("2e+23", EcmaNumber.toString(2e23));
      eq("5", EcmaNumber.toString(new BigDecimal("5.00")));
      eq("12.34", EcmaNumber.toString(new BigDecimal("12.340")));
      eq("5", EcmaNumber.toString(5));
    });
    test("NaN and the infinities have no JSON form", () -> {
      throwsA(IllegalArgumentException.class, () -> EcmaNumber.toString(Double.NaN));
      throwsA(IllegalArgumentException.class, () -> EcmaNumber.toString(Double.POSITIVE_INFINITY));
    });
  }

  static void canonical() {
    test("the canonical string drops sign, top-level nulls and empty strings, and keeps a nested null", () -> {
      Map<String, Object> extra = new LinkedHashMap<>();
      extra.put("z", 1.0);
      extra.put("a", null);
      extra.put("list", List.of(5.0, "ñ", true));
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("sign", "x");
      o.put("b", null);
      o.put("c", "");
      o.put("amount", new BigDecimal("5"));
      o.put("data", extra);
      o.put("ok", true);
      eq("amount=5&data={\"a\":null,\"list\":[5,\"ñ\",true],\"z\":1}&ok=true", Canonical.of(o));
    });
    test("top-level keys sort by code point, nested keys by UTF-16 code unit (RFC 8785)", () -> {
      Map<String, Object> nested = new LinkedHashMap<>();
      nested.put("\uD83D\uDE00", 1.0); // U+1F600, surrogates D83D DE00
      nested.put("\uFB33", 2.0); // U+FB33
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("\uD83D\uDE00", "a");
      o.put("\uFB33", "b");
      o.put("n", nested);
      eq("n={\"\uD83D\uDE00\":1,\"\uFB33\":2}&\uFB33=b&\uD83D\uDE00=a", Canonical.of(o));
    });
    test("JSON strings are escaped as JSON.stringify escapes them", () -> {
      eq("\"a\\\"b\\\\c\\n\\u0001é\"", Json.write("a\"b\\c\n\u0001é"));
      eq("\"\\ud800\"", Json.write("\uD800"));
      eq(Map.of("k", List.of(1.5, "x")), Json.parse(" {\"k\" : [1.5, \"x\"]} "));
      throwsA(IllegalArgumentException.class, () -> Json.parse("{\"k\":1,}"));
    });
  }

  static void keys() {
    test("keys load from PEM; a short key and a private key given as public are refused", () -> {
      String spki = pem("PUBLIC KEY", platform.getPublic().getEncoded());
      String pkcs8 = pem("PRIVATE KEY", merchant.getPrivate().getEncoded());
      eq(platform.getPublic(), Keys.publicKey(spki));
      eq(merchant.getPrivate(), Keys.privateKey(pkcs8));
      throwsA(IllegalArgumentException.class, () -> Keys.publicKey(pkcs8));
      KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
      gen.initialize(1024);
      String shortKey = pem("PUBLIC KEY", gen.generateKeyPair().getPublic().getEncoded());
      IllegalArgumentException e = throwsA(IllegalArgumentException.class, () -> Keys.publicKey(shortKey));
      check(e.getMessage().contains("2048"), e.getMessage());
    });
  }

  static void money() {
    test("pesos and centavos convert exactly; a third decimal is refused", () -> {
      eq(10050L, Money.toCentavos(new BigDecimal("100.5")));
      eq(new BigDecimal("100.50"), Money.toPesos(10050));
      throwsA(ArithmeticException.class, () -> Money.toCentavos(new BigDecimal("0.001")));
    });
  }

  static void callbacks() {
    test("a callback is verified over every field but sign, noticeType and mchNo included", () -> {
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("orderNo", "P1");
      data.put("amount", 100.5);
      data.put("status", "success");
      Map<String, Object> cb = new LinkedHashMap<>();
      cb.put("code", 0.0);
      cb.put("msg", "success");
      cb.put("noticeType", "order_status_changed");
      cb.put("mchNo", "M1");
      cb.put("data", data);
      cb.put("resTime", "2026-11-21 10:30:00");
      cb.put("traceId", "t");
      cb.put("sign", Signatures.sign(cb, platform.getPrivate()));
      Callback ok = Callbacks.verify(Json.write(cb), platform.getPublic());
      eq(true, ok.isPayOrder());
      eq(new BigDecimal("100.5"), ok.payOrder().amount());
      eq("SUCCESS", Callbacks.SUCCESS);

      String changedAmount = Json.write(cb).replace("100.5", "1005");
      throwsA(AgentpaySignatureException.class, () -> Callbacks.verify(changedAmount, platform.getPublic()));
      String changedNotice = Json.write(cb).replace("order_status_changed", "order_status_changex");
      throwsA(AgentpaySignatureException.class, () -> Callbacks.verify(changedNotice, platform.getPublic()));
      throwsA(AgentpaySignatureException.class, () -> Callbacks.verify("not json", platform.getPublic()));
    });
  }

  /** A stand-in gateway on the JDK's HTTP server: answers each request with what `reply` makes of its index. */
  static final class Gateway implements AutoCloseable {
    final HttpServer server;
    final ConcurrentLinkedQueue<Map<String, Object>> requests = new ConcurrentLinkedQueue<>();
    final AtomicInteger count = new AtomicInteger();

    Gateway(IntFunction<Object[]> reply) throws Exception {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", exchange -> {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(Json.parseObject(body));
        Object[] r = reply.apply(count.getAndIncrement());
        byte[] out = ((String) r[1]).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders((Integer) r[0], out.length);
        exchange.getResponseBody().write(out);
        exchange.close();
      });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  static String envelope(int code, String msg, Object data) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("code", code);
    e.put("msg", msg);
    e.put("data", data);
    e.put("resTime", "2026-11-21 10:15:01");
    e.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
    e.put("sign", Signatures.sign(e, platform.getPrivate()));
    return Json.write(e);
  }

  static AgentpayClient client(String url) {
    return AgentpayClient.builder()
        .baseUrl(url)
        .mchNo("M100200300")
        .privateKey(merchant.getPrivate())
        .platformPublicKey(platform.getPublic())
        .retryDelay(Duration.ofMillis(10))
        .timeout(Duration.ofSeconds(5))
        .build();
  }

  static void client() {
    test("pay signs the request with the merchant key and returns the verified, typed reply", () -> {
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("bizOrderNo", "B1");
      data.put("orderNo", "P1");
      data.put("status", "wait");
      data.put("payBody", "{\"clabe\":\"646180157000000004\",\"amount\":5}");
      try (Gateway gw = new Gateway(i -> new Object[] {200, envelope(0, "success", data)})) {
        PayResult result = client(gw.url())
            .pay(new PayParams().bizOrderNo("B1").title("t").method("mex_virtual_account")
                .amount(new BigDecimal("5.00")).extraParam(Map.of("customer", "C-9")))
            .unwrap();
        eq("P1", result.orderNo());
        eq("646180157000000004", result.parsedPayBody().clabe());
        eq(new BigDecimal("5"), result.parsedPayBody().amount());
        Map<String, Object> sent = gw.requests.peek();
        check(Signatures.verify(sent, sent.get("sign"), merchant.getPublic()), "request signature verifies");
        eq(5.0, sent.get("amount"));
        eq("{\"customer\":\"C-9\"}", sent.get("extraParam"));
        check(((String) sent.get("reqTime")).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"), "reqTime format");
        eq(32, ((String) sent.get("nonceStr")).length());
      }
    });
    test("a reply changed on the way, or unsigned, is refused", () -> {
      try (Gateway gw = new Gateway(i -> new Object[] {200, envelope(0, "success", Map.of("currency", "MXN",
          "available", 1.0, "pending", 0.0, "frozen", 0.0)).replace("\"available\":1", "\"available\":9")})) {
        throwsA(AgentpaySignatureException.class, () -> client(gw.url()).balance());
        eq(1, gw.count.get());
      }
      try (Gateway gw = new Gateway(i -> new Object[] {200, "{\"code\":0,\"msg\":\"success\",\"data\":null}"})) {
        throwsA(AgentpaySignatureException.class, () -> client(gw.url()).balance());
      }
    });
    test("an error reply is verified too and unwrap throws its code and msg", () -> {
      try (Gateway gw = new Gateway(i -> new Object[] {200, envelope(30003, "order not found", null)})) {
        Envelope<PayOrder> e = client(gw.url()).queryPayOrder(PayOrderRef.orderNo("P9"));
        eq(30003, e.code());
        eq(null, e.data());
        AgentpayApiException x = throwsA(AgentpayApiException.class, e::unwrap);
        eq(30003, x.code());
        eq("order not found", x.msg());
        eq(1, gw.count.get());
      }
    });
    test("503 and a proxy's 502 are retried, signed afresh each time, then the answer comes back", () -> {
      try (Gateway gw = new Gateway(i -> i == 0 ? new Object[] {503, envelope(50003, "service unavailable", null)}
          : i == 1 ? new Object[] {502, "<html>bad gateway</html>"}
          : new Object[] {200, envelope(0, "success", List.of(Map.of("code", "mex_virtual_account", "name", "SPEI")))})) {
        List<OptionItem> items = client(gw.url()).payMethods().unwrap();
        eq("mex_virtual_account", items.get(0).code());
        eq(3, gw.count.get());
        eq(3L, gw.requests.stream().map(r -> r.get("nonceStr")).distinct().count());
      }
    });
    test("a call with the caller's own nonceStr is never retried, and carries the caller's appId and clientIp", () -> {
      try (Gateway gw = new Gateway(i -> new Object[] {503, envelope(50003, "service unavailable", null)})) {
        Envelope<Balance> e = client(gw.url())
            .balance(new RequestOptions().nonceStr("mine-1").appId("APP9").clientIp("203.0.113.7"));
        eq(50003, e.code());
        eq(1, gw.count.get());
        Map<String, Object> sent = gw.requests.peek();
        eq("mine-1", sent.get("nonceStr"));
        eq("APP9", sent.get("appId"));
        eq("203.0.113.7", sent.get("clientIp"));
      }
    });
    test("a business refusal is not retried; retries stop after maxRetries", () -> {
      try (Gateway gw = new Gateway(i -> new Object[] {200, envelope(30002, "duplicate order", null)})) {
        eq(30002, client(gw.url()).pay(new PayParams().bizOrderNo("B1")).code());
        eq(1, gw.count.get());
      }
      try (Gateway gw = new Gateway(i -> new Object[] {503, envelope(50003, "service unavailable", null)})) {
        eq(50003, client(gw.url()).balance().code());
        eq(3, gw.count.get());
      }
    });
    test("a reply that is no envelope is an AgentpayHttpException with its status", () -> {
      try (Gateway gw = new Gateway(i -> new Object[] {502, "<html>bad gateway</html>"})) {
        AgentpayHttpException e = throwsA(AgentpayHttpException.class, () -> client(gw.url()).balance());
        eq(502, e.status());
      }
    });
    test("no reply at all is retried, then an AgentpayNetworkException", () -> {
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      int closedPort = port;
      AgentpayNetworkException e = throwsA(AgentpayNetworkException.class,
          () -> client("http://127.0.0.1:" + closedPort).balance());
      check(e.getMessage().contains("attempt 3"), e.getMessage());
    });
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
