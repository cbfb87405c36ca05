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
 * <p>Retries: a call is sent again, with a fresh nonce, after a pause that doubles each time, only when
 * repeating it cannot do anything twice (every endpoint of {@link Endpoint} today) and only when the
 * platform did not act on it or said to try later: no reply (connection refused, reset, timeout), HTTP 429
 * or 503, or the codes 42900, 50002 and 50003. Any other answer is returned at once.
 */
public final class AgentpayClient {
  private static final DateTimeFormatter API_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String baseUrl;
  private final String mchNo;
  private final String appId;
  private final PrivateKey privateKey;
  private final PublicKey platformKey;
  private final ZoneId timeZone;
  private final Duration timeout;
  private final int maxAttempts;
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
    if (b.maxAttempts < 1) throw new IllegalArgumentException("maxAttempts is at least 1");
    this.maxAttempts = b.maxAttempts;
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
    return call(Endpoint.PAY, params.toMap(), data -> PayResult.from(Fields.object(data)));
  }

  /** The payment methods open to this merchant. */
  public Envelope<List<OptionItem>> payMethods() {
    return call(Endpoint.PAY_METHODS, Map.of(), data -> Fields.list(data, OptionItem::from));
  }

  /** The payee types open to this merchant for transfers. */
  public Envelope<List<OptionItem>> payeeTypes() {
    return call(Endpoint.PAYEE_TYPES, Map.of(), data -> Fields.list(data, OptionItem::from));
  }

  /** The public payee codes (5-digit Banxico codes for SPEI, such as 40012) of a payee type. */
  public Envelope<List<OptionItem>> payeeCodes(String payeeType) {
    return call(Endpoint.PAYEE_CODES, Map.of("payeeType", payeeType), data -> Fields.list(data, OptionItem::from));
  }

  /** Closes (or with useCancel, cancels) an unfinished payment order; {@code data} is null on success. */
  public Envelope<Void> close(CloseParams params) {
    return call(Endpoint.CLOSE, params.toMap(), data -> null);
  }

  /** Validates a payee account before a transfer (POST /gateway/inqury). */
  public Envelope<InquiryResult> inquire(InquiryParams params) {
    return call(Endpoint.INQUIRE, params.toMap(), data -> InquiryResult.from(Fields.object(data)));
  }

  /** Creates and submits a transfer (payout). */
  public Envelope<TransferResult> transfer(TransferParams params) {
    return call(Endpoint.TRANSFER, params.toMap(), data -> TransferResult.from(Fields.object(data)));
  }

  /** A payment order by orderNo or bizOrderNo. */
  public Envelope<PayOrder> queryPayOrder(PayOrderRef ref) {
    return call(Endpoint.QUERY_PAY_ORDER, ref.toMap(), data -> PayOrder.from(Fields.object(data)));
  }

  /** A transfer by transferNo or bizTransferNo. */
  public Envelope<TransferOrder> queryTransferOrder(TransferRef ref) {
    return call(Endpoint.QUERY_TRANSFER_ORDER, ref.toMap(), data -> TransferOrder.from(Fields.object(data)));
  }

  /** Asks the platform to re-read a payment order's status from upstream. */
  public Envelope<SyncResult> syncPayOrder(PayOrderRef ref) {
    return call(Endpoint.SYNC_PAY_ORDER, ref.toMap(), data -> SyncResult.from(Fields.object(data)));
  }

  /** The MXN balance now: available, pending and frozen, in pesos. */
  public Envelope<Balance> balance() {
    return call(Endpoint.BALANCE, Map.of(), data -> Balance.from(Fields.object(data)));
  }

  /** One page of the statement: records in [startTime, endTime), oldest first. */
  public Envelope<BalanceRecordPage> balanceRecords(BalanceRecordsParams params) {
    return call(Endpoint.BALANCE_RECORDS, params.toMap(), data -> BalanceRecordPage.from(Fields.object(data)));
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
              call(Endpoint.BALANCE_RECORDS, p, data -> BalanceRecordPage.from(Fields.object(data))).unwrap();
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
   * #request(String, Map, boolean)}).
   */
  public <T> Envelope<T> call(Endpoint endpoint, Map<String, ?> params, Function<Object, T> reader) {
    Envelope<Object> raw = request(endpoint.path(), params, endpoint.idempotent());
    T data = raw.isSuccess() && raw.data() != null ? reader.apply(raw.data()) : null;
    return new Envelope<>(raw.code(), raw.msg(), data, raw.resTime(), raw.traceId(), raw.raw());
  }

  /**
   * Signs and POSTs {@code params} to {@code path}; the envelope's data is the parsed JSON (maps, lists,
   * strings, doubles, booleans). Retries as the class says only when {@code idempotent}.
   */
  public Envelope<Object> request(String path, Map<String, ?> params, boolean idempotent) {
    int attempt = 0;
    while (true) {
      attempt++;
      boolean last = attempt >= maxAttempts;
      String body = Json.write(signedBody(params));
      HttpResponse<String> response;
      try {
        HttpRequest request =
            HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("content-type", "application/json")
                .header("accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        boolean timedOut = e instanceof HttpTimeoutException;
        if (idempotent && !last) {
          pause(attempt);
          continue;
        }
        String reason = timedOut ? "no reply within " + timeout.toMillis() + " ms" : String.valueOf(e.getMessage());
        throw new AgentpayNetworkException("POST " + path + ": " + reason + " (attempt " + attempt + ")", timedOut, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AgentpayNetworkException("POST " + path + ": interrupted", false, e);
      }
      Envelope<Object> envelope = verified(path, response.statusCode(), response.body());
      if (idempotent && !last && tryLater(response.statusCode(), envelope.code())) {
        pause(attempt);
        continue;
      }
      return envelope;
    }
  }

  /** The signed body the client sends for {@code params}: common parameters added, then signed. */
  public Map<String, Object> signedBody(Map<String, ?> params) {
    Map<String, Object> body = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : params.entrySet()) {
      if (e.getValue() == null) continue;
      body.put(e.getKey(), e.getValue());
    }
    body.put("mchNo", mchNo);
    body.put("reqTime", ZonedDateTime.now(timeZone).format(API_TIME));
    byte[] nonce = new byte[16];
    RANDOM.nextBytes(nonce);
    body.put("nonceStr", HexFormat.of().formatHex(nonce));
    if (appId != null && !body.containsKey("appId")) body.put("appId", appId);
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

  private static boolean tryLater(int status, int code) {
    return status == 429
        || status == 503
        || code == ResultCode.TOO_MANY_REQUESTS
        || code == ResultCode.UPSTREAM_UNAVAILABLE
        || code == ResultCode.SERVICE_UNAVAILABLE;
  }

  private void pause(int attempt) {
    long base = retryDelay.toMillis() << Math.min(attempt - 1, 10);
    // Up to half again at random, so clients that failed together do not come back together.
    long millis = base + (long) (RANDOM.nextDouble() * base / 2);
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
    private int maxAttempts = 3;
    private Duration retryDelay = Duration.ofMillis(250);
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

    /** Attempts per call, the first included; default 3 (1 turns retries off). */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** Pause before the first retry, doubled for each next one; default 250 ms. */
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
