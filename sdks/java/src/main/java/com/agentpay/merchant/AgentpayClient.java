package com.agentpay.merchant;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;

/**
 * A merchant's client of the agentpay API. Each call fills in mchNo, reqTime and nonceStr, signs with the
 * merchant key, POSTs, verifies the reply with the platform key (throwing {@link
 * AgentpaySignatureException} when it does not verify, errors included) and returns the envelope. Business
 * failures come back as envelopes with a non-zero code; {@link Envelope#unwrap()} turns them into {@link
 * AgentpayApiException}. Thread-safe: share one client.
 *
 * <p>Retries: a call is sent again, signed afresh (new reqTime and nonceStr), only when repeating it cannot
 * do anything twice (every endpoint of {@link Endpoint} today) and only on no reply (connection refused,
 * reset, timeout) or HTTP 429, 502, 503 or 504: at most {@code maxRetries} times (default 2), after 0.2 s,
 * 0.4 s, ... (doubling, with jitter, at most 5 s; a Retry-After is honoured up to that). A call with the
 * caller's own nonceStr is never retried (a repeated nonce is refused). Any other answer is returned at once.
 */
public final class AgentpayClient {
  private static final DateTimeFormatter API_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long MAX_RETRY_DELAY_MS = 5_000;

  private final String baseUrl;
  private final String mchNo;
  private final String appId;
  private final PrivateKey privateKey;
  private final PublicKey platformKey;
  private final ZoneId timeZone;
  private final Duration timeout;
  private final int maxRetries;
  private final Duration retryDelay;
  private final HttpClient http;

  private AgentpayClient(Builder b) {
    if (b.baseUrl == null || b.baseUrl.isEmpty()) throw new IllegalArgumentException("baseUrl is required");
    if (b.mchNo == null || b.mchNo.isEmpty()) throw new IllegalArgumentException("mchNo is required");
    this.baseUrl = b.baseUrl.replaceAll("/+$", "");
    this.mchNo = b.mchNo;
    this.appId = b.appId;
    this.privateKey = Objects.requireNonNull(b.privateKey, "privateKey is required");
    this.platformKey = Objects.requireNonNull(b.platformPublicKey, "platformPublicKey is required");
    this.timeZone = b.timeZone;
    this.timeout = b.timeout;
    if (b.maxRetries < 0) throw new IllegalArgumentException("maxRetries is at least 0");
    this.maxRetries = b.maxRetries;
    this.retryDelay = b.retryDelay;
    this.http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder().connectTimeout(b.timeout).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public String mchNo() {
    return mchNo;
  }

  /** Creates a virtual-account payment order; {@link PayResult#parsedPayBody()} tells the payer where to pay. */
  public Envelope<PayResult> pay(PayParams params) {
    return pay(params, new RequestOptions());
  }

  /** pay with per-request {@link RequestOptions}. */
  public Envelope<PayResult> pay(PayParams params, RequestOptions options) {
    return call(Endpoint.PAY, params.toMap(), data -> PayResult.from(Fields.object(data)), options);
  }

  /** The payment methods open to this merchant. */
  public Envelope<List<OptionItem>> payMethods() {
    return payMethods(new RequestOptions());
  }

  /** payMethods with per-request {@link RequestOptions}. */
  public Envelope<List<OptionItem>> payMethods(RequestOptions options) {
    return call(Endpoint.PAY_METHODS, Map.of(), data -> Fields.list(data, OptionItem::from), options);
  }

  /** The payee types open to this merchant for transfers. */
  public Envelope<List<OptionItem>> payeeTypes() {
    return payeeTypes(new RequestOptions());
  }

  /** payeeTypes with per-request {@link RequestOptions}. */
  public Envelope<List<OptionItem>> payeeTypes(RequestOptions options) {
    return call(Endpoint.PAYEE_TYPES, Map.of(), data -> Fields.list(data, OptionItem::from), options);
  }

  /** The public payee codes (5-digit Banxico codes for SPEI, such as 40012) of a payee type. */
  public Envelope<List<OptionItem>> payeeCodes(String payeeType) {
    return payeeCodes(payeeType, new RequestOptions());
  }

  /** payeeCodes with per-request {@link RequestOptions}. */
  public Envelope<List<OptionItem>> payeeCodes(String payeeType, RequestOptions options) {
    return call(Endpoint.PAYEE_CODES, Map.of("payeeType", payeeType), data -> Fields.list(data, OptionItem::from), options);
  }

  /** Closes (or with useCancel, cancels) an unfinished payment order; {@code data} is null on success. */
  public Envelope<Void> close(CloseParams params) {
    return close(params, new RequestOptions());
  }

  /** close with per-request {@link RequestOptions}. */
  public Envelope<Void> close(CloseParams params, RequestOptions options) {
    return call(Endpoint.CLOSE, params.toMap(), data -> null, options);
  }

  /** Validates a payee account before a transfer (POST /gateway/inqury). */
  public Envelope<InquiryResult> inquire(InquiryParams params) {
    return inquire(params, new RequestOptions());
  }

  /** inquire with per-request {@link RequestOptions}. */
  public Envelope<InquiryResult> inquire(InquiryParams params, RequestOptions options) {
    return call(Endpoint.INQUIRE, params.toMap(), data -> InquiryResult.from(Fields.object(data)), options);
  }

  /** Creates and submits a transfer (payout). */
  public Envelope<TransferResult> transfer(TransferParams params) {
    return transfer(params, new RequestOptions());
  }

  /** transfer with per-request {@link RequestOptions}. */
  public Envelope<TransferResult> transfer(TransferParams params, RequestOptions options) {
    return call(Endpoint.TRANSFER, params.toMap(), data -> TransferResult.from(Fields.object(data)), options);
  }

  /** A payment order by orderNo or bizOrderNo. */
  public Envelope<PayOrder> queryPayOrder(PayOrderRef ref) {
    return queryPayOrder(ref, new RequestOptions());
  }

  /** queryPayOrder with per-request {@link RequestOptions}. */
  public Envelope<PayOrder> queryPayOrder(PayOrderRef ref, RequestOptions options) {
    return call(Endpoint.QUERY_PAY_ORDER, ref.toMap(), data -> PayOrder.from(Fields.object(data)), options);
  }

  /** A transfer by transferNo or bizTransferNo. */
  public Envelope<TransferOrder> queryTransferOrder(TransferRef ref) {
    return queryTransferOrder(ref, new RequestOptions());
  }

  /** queryTransferOrder with per-request {@link RequestOptions}. */
  public Envelope<TransferOrder> queryTransferOrder(TransferRef ref, RequestOptions options) {
    return call(Endpoint.QUERY_TRANSFER_ORDER, ref.toMap(), data -> TransferOrder.from(Fields.object(data)), options);
  }

  /** Refunds a paid order to its payer's account: all that is left, or the amount given; idempotent on bizRefundNo. */
  public Envelope<RefundResult> refund(RefundParams params) {
    return refund(params, new RequestOptions());
  }

  /** refund with per-request {@link RequestOptions}. */
  public Envelope<RefundResult> refund(RefundParams params, RequestOptions options) {
    return call(Endpoint.REFUND, params.toMap(), data -> RefundResult.from(Fields.object(data)), options);
  }

  /** A refund by refundNo or bizRefundNo, with its CEP facts once it succeeded. */
  public Envelope<Refund> queryRefund(RefundRef ref) {
    return queryRefund(ref, new RequestOptions());
  }

  /** queryRefund with per-request {@link RequestOptions}. */
  public Envelope<Refund> queryRefund(RefundRef ref, RequestOptions options) {
    return call(Endpoint.QUERY_REFUND, ref.toMap(), data -> Refund.from(Fields.object(data)), options);
  }

  /** Asks the platform to re-read a payment order's status from upstream. */
  public Envelope<SyncResult> syncPayOrder(PayOrderRef ref) {
    return syncPayOrder(ref, new RequestOptions());
  }

  /** syncPayOrder with per-request {@link RequestOptions}. */
  public Envelope<SyncResult> syncPayOrder(PayOrderRef ref, RequestOptions options) {
    return call(Endpoint.SYNC_PAY_ORDER, ref.toMap(), data -> SyncResult.from(Fields.object(data)), options);
  }

  /** The MXN balance now: available, pending and frozen, in pesos. */
  public Envelope<Balance> balance() {
    return balance(new RequestOptions());
  }

  /** balance with per-request {@link RequestOptions}. */
  public Envelope<Balance> balance(RequestOptions options) {
    return call(Endpoint.BALANCE, Map.of(), data -> Balance.from(Fields.object(data)), options);
  }

  /** One page of the statement: records in [startTime, endTime), oldest first. */
  public Envelope<BalanceRecordPage> balanceRecords(BalanceRecordsParams params) {
    return balanceRecords(params, new RequestOptions());
  }

  /** balanceRecords with per-request {@link RequestOptions}. */
  public Envelope<BalanceRecordPage> balanceRecords(BalanceRecordsParams params, RequestOptions options) {
    return call(Endpoint.BALANCE_RECORDS, params.toMap(), data -> BalanceRecordPage.from(Fields.object(data)), options);
  }

  /**
   * The payout and pay-in limits in effect and today's and this month's usage (Mexico City days): data is
   * {limits: {payout: {perTransfer, daily, dailyCount, monthly}, payin: {perOrder}}, usage}.
   */
  public Envelope<Map<String, Object>> queryLimits(RequestOptions options) {
    return call(Endpoint.QUERY_LIMITS, Map.of(), Fields::object, options);
  }

  /**
   * Registers a payee (with registered payees only on, transfers go only to usable ones): data is
   * {payeeId, status (cooling or usable), usableAt, ...}; the same account again answers its registration.
   * {@code payeeCode} may be null.
   */
  public Envelope<Map<String, Object>> registerPayee(
      String payeeType, String payeeAccount, String payeeName, String payeeCode, RequestOptions options) {
    Map<String, Object> params = new java.util.LinkedHashMap<>();
    params.put("payeeType", payeeType);
    params.put("payeeAccount", payeeAccount);
    params.put("payeeName", payeeName);
    if (payeeCode != null) params.put("payeeCode", payeeCode);
    return call(Endpoint.REGISTER_PAYEE, params, Fields::object, options);
  }

  /** One page of the registered payees, newest first: data is {payees, nextCursor?}; limit and cursor may be null. */
  public Envelope<Map<String, Object>> queryPayees(Integer limit, String cursor, RequestOptions options) {
    Map<String, Object> params = new java.util.LinkedHashMap<>();
    if (limit != null) params.put("limit", limit);
    if (cursor != null) params.put("cursor", cursor);
    return call(Endpoint.QUERY_PAYEES, params, Fields::object, options);
  }

  /** Removes a registered payee at once; transfers to it are refused from now (40009). */
  public Envelope<Map<String, Object>> removePayee(String payeeId, RequestOptions options) {
    return call(Endpoint.REMOVE_PAYEE, Map.of("payeeId", payeeId), Fields::object, options);
  }

  /**
   * Creates a batch payout of 1..1,000 items (each a map of a transfer's fields: bizTransferNo, amount,
   * payeeType, payeeAccount, payeeName, ...), funded as one; data is {batchNo, bizBatchNo, status, count,
   * amount, fee}. notifyUrl may be null.
   */
  public Envelope<Map<String, Object>> transferBatch(
      String bizBatchNo, String notifyUrl, List<Map<String, Object>> items, RequestOptions options) {
    Map<String, Object> params = new java.util.LinkedHashMap<>();
    params.put("bizBatchNo", bizBatchNo);
    if (notifyUrl != null) params.put("notifyUrl", notifyUrl);
    params.put("items", items);
    return call(Endpoint.TRANSFER_BATCH, params, Fields::object, options);
  }

  /** A batch payout by batchNo or bizBatchNo (one may be null) and one page of its items; cursor, limit may be null. */
  public Envelope<Map<String, Object>> queryTransferBatch(
      String batchNo, String bizBatchNo, String cursor, Integer limit, RequestOptions options) {
    Map<String, Object> params = new java.util.LinkedHashMap<>();
    if (batchNo != null) params.put("batchNo", batchNo);
    if (bizBatchNo != null) params.put("bizBatchNo", bizBatchNo);
    if (cursor != null) params.put("cursor", cursor);
    if (limit != null) params.put("limit", limit);
    return call(Endpoint.QUERY_TRANSFER_BATCH, params, Fields::object, options);
  }

  /**
   * Every record of the statement, page after page (following nextCursor from the params' cursor on). A
   * page that fails throws {@link AgentpayApiException} while iterating.
   */
  public Iterable<BalanceRecord> allBalanceRecords(BalanceRecordsParams params) {
    Map<String, Object> first = params.toMap();
    return () -> new Iterator<>() {
      private Iterator<BalanceRecord> page = Collections.emptyIterator();
      private String cursor = (String) first.get("cursor");
      private boolean started;

      @Override
      public boolean hasNext() {
        while (!page.hasNext() && (!started || cursor != null)) {
          Map<String, Object> p = new LinkedHashMap<>(first);
          if (cursor != null) p.put("cursor", cursor);
          else p.remove("cursor");
          BalanceRecordPage next =
              call(Endpoint.BALANCE_RECORDS, p, data -> BalanceRecordPage.from(Fields.object(data)),
                      new RequestOptions())
                  .unwrap();
          started = true;
          cursor = next.nextCursor();
          page = next.records().iterator();
        }
        return page.hasNext();
      }

      @Override
      public BalanceRecord next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.next();
      }
    };
  }

  /**
   * Signs {@code params}, POSTs them to {@code endpoint} and returns the verified envelope with its data
   * read by {@code reader} (for an endpoint this SDK has no typed call for yet: use {@link
   * #request(String, Map, boolean, RequestOptions)}).
   */
  public <T> Envelope<T> call(
      Endpoint endpoint, Map<String, ?> params, Function<Object, T> reader, RequestOptions options) {
    Envelope<Object> raw = request(endpoint.path(), params, endpoint.idempotent(), options);
    T data = raw.isSuccess() && raw.data() != null ? reader.apply(raw.data()) : null;
    return new Envelope<>(raw.code(), raw.msg(), data, raw.resTime(), raw.traceId(), raw.raw());
  }

  /**
   * Signs and POSTs {@code params} to {@code path}; the envelope's data is the parsed JSON (maps, lists,
   * strings, doubles, booleans). Retries as the class says only when {@code idempotent}.
   */
  public Envelope<Object> request(String path, Map<String, ?> params, boolean idempotent, RequestOptions options) {
    // A nonce of the caller's is single use: sending it again would be refused (20054).
    boolean retry = idempotent && options.nonceStr == null;
    int attempt = 0;
    while (true) {
      attempt++;
      boolean last = !retry || attempt > maxRetries;
      String body = Json.write(signedBody(params, options));
      HttpResponse<String> response;
      try {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("content-type", "application/json")
                .header("accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (options.traceparent != null) request.header("traceparent", options.traceparent);
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        boolean timedOut = e instanceof HttpTimeoutException;
        if (!last) {
          pause(attempt, null);
          continue;
        }
        String reason = timedOut ? "no reply within " + timeout.toMillis() + " ms" : String.valueOf(e.getMessage());
        throw new AgentpayNetworkException("POST " + path + ": " + reason + " (attempt " + attempt + ")", timedOut, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AgentpayNetworkException("POST " + path + ": interrupted", false, e);
      }
      int status = response.statusCode();
      if (!last && (status == 429 || status == 502 || status == 503 || status == 504)) {
        pause(attempt, response.headers().firstValue("retry-after").orElse(null));
        continue;
      }
      return verified(path, status, response.body());
    }
  }

  /** The signed body the client sends for {@code params}: common parameters added, then signed. */
  public Map<String, Object> signedBody(Map<String, ?> params, RequestOptions options) {
    Map<String, Object> body = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : params.entrySet()) {
      if (e.getValue() == null) continue;
      body.put(e.getKey(), e.getValue());
    }
    body.put("mchNo", mchNo);
    body.put("reqTime", ZonedDateTime.now(timeZone).format(API_TIME));
    if (options.nonceStr != null) {
      body.put("nonceStr", options.nonceStr);
    } else {
      byte[] nonce = new byte[16];
      RANDOM.nextBytes(nonce);
      body.put("nonceStr", HexFormat.of().formatHex(nonce));
    }
    String app = options.appId != null ? options.appId : appId;
    if (app != null && !body.containsKey("appId")) body.put("appId", app);
    if (options.clientIp != null) body.put("clientIp", options.clientIp);
    body.remove("sign");
    body.put("sign", Signatures.sign(body, privateKey));
    return body;
  }

  private Envelope<Object> verified(String path, int status, String text) {
    Map<String, Object> parsed;
    try {
      parsed = Json.parseObject(text);
    } catch (IllegalArgumentException e) {
      parsed = null;
    }
    if (parsed == null || !(parsed.get("code") instanceof Number) || !(parsed.get("msg") instanceof String)) {
      throw new AgentpayHttpException(
          "POST " + path + ": HTTP " + status + " without an API envelope", status, Callbacks.clip(text));
    }
    Object sign = parsed.get("sign");
    if (!(sign instanceof String) || ((String) sign).isEmpty()) {
      throw new AgentpaySignatureException("POST " + path + ": the reply is not signed", Callbacks.clip(text));
    }
    if (!Signatures.verify(parsed, sign, platformKey)) {
      throw new AgentpaySignatureException(
          "POST " + path + ": the reply's signature does not verify with the platform public key",
          Callbacks.clip(text));
    }
    return new Envelope<>(
        ((Number) parsed.get("code")).intValue(),
        (String) parsed.get("msg"),
        parsed.get("data"),
        Fields.str(parsed, "resTime"),
        Fields.str(parsed, "traceId"),
        parsed);
  }

  private void pause(int attempt, String retryAfter) {
    long base = retryDelay.toMillis() << Math.min(attempt - 1, 10);
    // Up to half again at random, so clients that failed together do not come back together.
    long millis = Math.min(base + (long) (RANDOM.nextDouble() * base / 2), MAX_RETRY_DELAY_MS);
    if (retryAfter != null && retryAfter.matches("\\d{1,6}")) {
      millis = Math.min(Math.max(millis, Long.parseLong(retryAfter) * 1000), MAX_RETRY_DELAY_MS);
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AgentpayNetworkException("interrupted while waiting to retry", false, e);
    }
  }

  /** Options of a client; baseUrl, mchNo, privateKey and platformPublicKey are required. */
  public static final class Builder {
    private String baseUrl;
    private String mchNo;
    private String appId;
    private PrivateKey privateKey;
    private PublicKey platformPublicKey;
    private ZoneId timeZone = ZoneId.of("America/Mexico_City");
    private Duration timeout = Duration.ofSeconds(30);
    private int maxRetries = 2;
    private Duration retryDelay = Duration.ofMillis(200);
    private HttpClient httpClient;

    private Builder() {}

    /** Where the merchant API is, e.g. {@code https://api.agentpay.example} (no /gateway suffix). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    public Builder mchNo(String mchNo) {
      this.mchNo = mchNo;
      return this;
    }

    /** Sent as appId on every request. */
    public Builder appId(String appId) {
      this.appId = appId;
      return this;
    }

    /** Your RSA private key (see {@link Keys#privateKey(java.nio.file.Path)}). */
    public Builder privateKey(PrivateKey privateKey) {
      this.privateKey = privateKey;
      return this;
    }

    /** The platform's public key: every reply must verify with it. */
    public Builder platformPublicKey(PublicKey platformPublicKey) {
      this.platformPublicKey = platformPublicKey;
      return this;
    }

    /** The platform's wall clock, used for reqTime; default America/Mexico_City. */
    public Builder timeZone(ZoneId timeZone) {
      this.timeZone = timeZone;
      return this;
    }

    /** Deadline of one attempt; default 30 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Retries after the first attempt, where a retry is safe; default 2 (0 turns retries off). */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** Pause before the first retry, doubled for each next one (at most 5 s); default 200 ms. */
    public Builder retryDelay(Duration retryDelay) {
      this.retryDelay = retryDelay;
      return this;
    }

    /** A java.net.http client of your own (proxy, TLS settings). */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public AgentpayClient build() {
      return new AgentpayClient(this);
    }
  }
}
