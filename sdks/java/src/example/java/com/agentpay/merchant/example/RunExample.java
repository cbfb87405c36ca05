package com.agentpay.merchant.example;

import com.agentpay.merchant.AgentpayClient;
import com.agentpay.merchant.AgentpayException;
import com.agentpay.merchant.Callbacks;
import com.agentpay.merchant.Keys;
import com.agentpay.merchant.PayBody;
import com.agentpay.merchant.PayOrder;
import com.agentpay.merchant.PayOrderRef;
import com.agentpay.merchant.PayParams;
import com.agentpay.merchant.PayResult;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The example every agentpay SDK ships, the same in each language:
 * {@code pay-and-query} creates a pay order, queries it, and prints {@code {"orderNo","bizOrderNo","status","clabe"}};
 * {@code verify-callback} reads a callback body on standard input and prints {@code ok} (exit 0) or {@code bad}
 * (exit 1).
 * Settings: AGENTPAY_URL, AGENTPAY_MCH_NO, AGENTPAY_PRIVATE_KEY and AGENTPAY_PLATFORM_PUBLIC_KEY (PEM
 * files), AGENTPAY_AMOUNT (default 12.34).
 */
public final class RunExample {
  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    String command = args.length > 0 ? args[0] : "";
    try {
      switch (command) {
        case "pay-and-query": payAndQuery(out); break;
        case "verify-callback": verifyCallback(out); break;
        default:
          System.err.println("usage: run-example pay-and-query | verify-callback");
          System.exit(2);
      }
    } catch (AgentpayException | IllegalArgumentException e) {
      System.err.println(command + " failed: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void payAndQuery(PrintStream out) {
    AgentpayClient agentpay =
        AgentpayClient.builder()
            .baseUrl(env("AGENTPAY_URL"))
            .mchNo(env("AGENTPAY_MCH_NO"))
            .privateKey(Keys.privateKey(Path.of(env("AGENTPAY_PRIVATE_KEY"))))
            .platformPublicKey(platformKey())
            .build();
    String amount = System.getenv().getOrDefault("AGENTPAY_AMOUNT", "12.34");
    String bizOrderNo = "JAVA-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);

    // Both replies are verified with the platform key inside the client; unwrap throws on a non-zero code.
    PayResult created =
        agentpay
            .pay(new PayParams()
                .bizOrderNo(bizOrderNo)
                .title("Java SDK example")
                .method("mex_virtual_account")
                .amount(new BigDecimal(amount)))
            .unwrap();
    PayBody payBody = created.parsedPayBody();
    PayOrder order = agentpay.queryPayOrder(PayOrderRef.orderNo(created.orderNo())).unwrap();

    Map<String, Object> line = new LinkedHashMap<>();
    line.put("orderNo", order.orderNo());
    line.put("bizOrderNo", order.bizOrderNo());
    line.put("status", order.status());
    line.put("clabe", payBody.clabe());
    out.println(com.agentpay.merchant.Json.write(line));
  }

  private static void verifyCallback(PrintStream out) throws IOException {
    String body = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    PublicKey key = platformKey();
    try {
      Callbacks.verify(body, key);
      out.println("ok");
    } catch (AgentpayException e) {
      out.println("bad");
      System.exit(1);
    }
  }

  private static PublicKey platformKey() {
    return Keys.publicKey(Path.of(env("AGENTPAY_PLATFORM_PUBLIC_KEY")));
  }

  private static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " is not set");
    return value;
  }
}
