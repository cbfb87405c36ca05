package com.agentpay.merchant;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every typed call of the client against a running stack (the settings of run-example), printing one JSON
 * object of what came back, for test/sdk-java.e2e.test.ts to check. Every reply was verified by the client.
 */
public final class StackTour {
  public static void main(String[] args) {
    AgentpayClient agentpay =
        AgentpayClient.builder()
            .baseUrl(System.getenv("AGENTPAY_URL"))
            .mchNo(System.getenv("AGENTPAY_MCH_NO"))
            .privateKey(Keys.privateKey(Path.of(System.getenv("AGENTPAY_PRIVATE_KEY"))))
            .platformPublicKey(Keys.publicKey(Path.of(System.getenv("AGENTPAY_PLATFORM_PUBLIC_KEY"))))
            .build();
    Map<String, Object> out = new LinkedHashMap<>();
    String run = UUID.randomUUID().toString().substring(0, 8);

    out.put("payMethods", codes(agentpay.payMethods().unwrap()));
    out.put("payeeTypes", codes(agentpay.payeeTypes().unwrap()));
    out.put("speiCodes", codes(agentpay.payeeCodes("spei_transfer").unwrap()));

    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("customer", "C-9");
    extra.put("note", null);
    PayParams five = new PayParams().bizOrderNo("J5-" + run).title("Cinco pesos — café").method("mex_virtual_account")
        .amount(new BigDecimal("5.00")).extraParam(extra).attach("java e2e");
    PayResult created = agentpay.pay(five).unwrap();
    out.put("pay", Map.of("orderNo", created.orderNo(), "status", created.status(),
        "amount", created.parsedPayBody().amount().toPlainString()));
    out.put("payAgainSameOrder", agentpay.pay(five).unwrap().orderNo().equals(created.orderNo()));
    out.put("payChangedCode", agentpay.pay(five.amount(new BigDecimal("6"))).code());
    PayOrder queried = agentpay.queryPayOrder(PayOrderRef.bizOrderNo("J5-" + run)).unwrap();
    out.put("query", Map.of("status", queried.status(), "amount", queried.amount().toPlainString(),
        "attach", queried.attach()));
    out.put("closeCode", agentpay.close(new CloseParams().orderNo(created.orderNo()).useCancel(true)).code());
    out.put("syncStatus", agentpay.syncPayOrder(PayOrderRef.orderNo(created.orderNo())).unwrap().orderStatus());

    Envelope<PayOrder> missing = agentpay.queryPayOrder(PayOrderRef.bizOrderNo("NONE-" + run));
    try {
      missing.unwrap();
      out.put("missing", "no exception");
    } catch (AgentpayApiException e) {
      out.put("missing", Map.of("code", e.code(), "msg", e.msg()));
    }

    InquiryParams rawCode = new InquiryParams().bizInquryNo("JI0-" + run).payeeType("spei_transfer")
        .payeeAccount("012180000123456782").payeeName("Ana").payeeCode("012");
    out.put("rawPayeeCodeCode", agentpay.inquire(rawCode).code());
    InquiryResult inquiry = agentpay.inquire(new InquiryParams().bizInquryNo("JI1-" + run).payeeType("spei_transfer")
        .payeeAccount("012180000123456782").payeeName("Ana").payeeCode("40012")).unwrap();
    out.put("inquiry", Map.of("status", inquiry.status(), "accountValid", inquiry.accountValid()));

    TransferResult transfer = agentpay.transfer(new TransferParams().bizTransferNo("JT-" + run)
        .amount(new BigDecimal("1.5")).payeeType("spei_transfer").payeeAccount("646180110400000007")
        .payeeName("Ana")).unwrap();
    // Waits for the payout to end, so the statement read twice below does not change in between.
    TransferOrder transferOrder = agentpay.queryTransferOrder(TransferRef.transferNo(transfer.transferNo())).unwrap();
    for (int i = 0; i < 300 && "progress".equals(transferOrder.status()); i++) {
      sleep(100);
      transferOrder = agentpay.queryTransferOrder(TransferRef.transferNo(transfer.transferNo())).unwrap();
    }
    out.put("transfer", Map.of("status", transferOrder.status(), "bizTransferNo", transferOrder.bizTransferNo(),
        "amount", transferOrder.amount().toPlainString(), "payeeCode", transferOrder.payeeCode()));

    Balance balance = agentpay.balance().unwrap();
    out.put("balance", Map.of("currency", balance.currency(), "available", balance.available().toPlainString(),
        "frozen", balance.frozen().toPlainString()));

    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    ZonedDateTime now = ZonedDateTime.now(ZoneId.of("America/Mexico_City"));
    BalanceRecordsParams window = new BalanceRecordsParams().startTime(now.minusDays(1).format(f))
        .endTime(now.plusDays(1).format(f));
    BalanceRecordPage page = agentpay.balanceRecords(window).unwrap();
    List<Object> types = new ArrayList<>();
    for (BalanceRecord r : page.records()) types.add(r.type());
    out.put("recordTypes", types);
    int paged = 0;
    for (BalanceRecord r : agentpay.allBalanceRecords(window.limit(1))) paged++;
    out.put("recordsPagedOneByOne", paged);

    new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8).println(Json.write(out));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static List<Object> codes(List<OptionItem> items) {
    List<Object> codes = new ArrayList<>();
    for (OptionItem item : items) codes.add(item.code());
    return codes;
  }
}
