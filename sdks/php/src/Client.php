<?php

declare(strict_types=1);

namespace Agentpay;

use Agentpay\Exception\HttpException;
use Agentpay\Exception\NetworkException;
use Agentpay\Exception\SignatureException;
use Agentpay\Transport\CurlTransport;
use Agentpay\Transport\Transport;
use OpenSSLAsymmetricKey;

/**
 * A merchant's client of the agentpay API. Each call fills in mchNo, reqTime and nonceStr, signs with the
 * merchant key, POSTs, verifies the reply with the platform key (throwing SignatureException when it does
 * not verify) and returns the Envelope. Business failures come back as envelopes with a non-zero code, not
 * as exceptions; $envelope->unwrap() turns them into ApiException where that reads better.
 */
final class Client
{
    public const DEFAULT_TIME_ZONE = 'America/Mexico_City';
    private const RETRY_STATUSES = [429, 502, 503, 504];
    private const MAX_BACKOFF_SECONDS = 5.0;

    public readonly string $mchNo;
    private readonly string $baseUrl;
    private readonly OpenSSLAsymmetricKey $privateKey;
    private readonly OpenSSLAsymmetricKey $platformKey;
    private readonly \DateTimeZone $timeZone;
    private readonly Transport $transport;
    /** @var callable(float): void */
    private $sleep;

    /**
     * @param string $baseUrl where the merchant API is, e.g. https://api.agentpay.example (no /gateway suffix)
     * @param string|OpenSSLAsymmetricKey $privateKey your RSA private key, PEM text (PKCS#8 or PKCS#1)
     * @param string|OpenSSLAsymmetricKey $platformPublicKey the platform's public key, PEM text: every reply must verify with it
     * @param string|null $appId sent on every request unless RequestOptions overrides it
     * @param string $timeZone IANA zone of the platform's wall clock, for reqTime
     * @param int $maxRetries retries of a call that is safe to repeat (sdks/README.md "Retries"); 0 turns them off
     * @param float $retryBaseDelaySeconds the first retry's wait; each next one doubles, at most 5 s
     * @param (callable(float): void)|null $sleep how to wait between retries (tests pass their own)
     */
    public function __construct(
        string $baseUrl,
        string $mchNo,
        string|OpenSSLAsymmetricKey $privateKey,
        string|OpenSSLAsymmetricKey $platformPublicKey,
        private readonly ?string $appId = null,
        string $timeZone = self::DEFAULT_TIME_ZONE,
        private readonly float $timeoutSeconds = 30.0,
        private readonly int $maxRetries = 2,
        private readonly float $retryBaseDelaySeconds = 0.2,
        ?Transport $transport = null,
        ?callable $sleep = null,
    ) {
        if ($baseUrl === '') {
            throw new \InvalidArgumentException('baseUrl is required');
        }
        if ($mchNo === '') {
            throw new \InvalidArgumentException('mchNo is required');
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->mchNo = $mchNo;
        $this->privateKey = Signing::privateKey($privateKey);
        $this->platformKey = Signing::publicKey($platformPublicKey);
        $this->timeZone = new \DateTimeZone($timeZone); // fails here, not on the first request
        $this->transport = $transport ?? new CurlTransport();
        $this->sleep = $sleep ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
    }

    /**
     * Creates a virtual-account payment order; data.payBody (Money::parsePayBody) tells the payer where to
     * send the money. bizOrderNo is the idempotency key: the same parameters again return the same order.
     *
     * @param int|float $amount pesos, 0.01..99,999,999.99, at most 2 decimals (Money::centavosToAmount)
     * @param array<string, mixed>|string|null $extraParam a JSON object (serialized for you) or its JSON text
     */
    public function pay(
        string $bizOrderNo,
        string $title,
        string $method,
        int|float $amount,
        ?string $description = null,
        ?string $expiredTime = null,
        ?string $limitPay = null,
        array|string|null $extraParam = null,
        ?string $attach = null,
        ?string $returnUrl = null,
        ?string $quitUrl = null,
        ?string $notifyUrl = null,
        ?RequestOptions $options = null,
    ): Envelope {
        return $this->call('pay', get_defined_vars());
    }

    /** The payment methods open to this merchant: data is a list of {code, name}. */
    public function payMethods(?RequestOptions $options = null): Envelope
    {
        return $this->call('payMethods', get_defined_vars());
    }

    /** The payee types open to this merchant for transfers: data is a list of {code, name}. */
    public function payeeTypes(?RequestOptions $options = null): Envelope
    {
        return $this->call('payeeTypes', get_defined_vars());
    }

    /** The public payee codes (Banxico institution codes for SPEI) of a payee type, to use as payeeCode. */
    public function payeeCodes(string $payeeType, ?RequestOptions $options = null): Envelope
    {
        return $this->call('payeeCodes', get_defined_vars());
    }

    /** Closes (with useCancel, cancels) an unfinished payment order named by orderNo or bizOrderNo; data is null. */
    public function close(
        ?string $orderNo = null,
        ?string $bizOrderNo = null,
        ?bool $useCancel = null,
        ?RequestOptions $options = null,
    ): Envelope {
        self::requireOne(['orderNo' => $orderNo, 'bizOrderNo' => $bizOrderNo]);
        return $this->call('close', get_defined_vars());
    }

    /**
     * Validates a payee account before a transfer (POST /gateway/inqury).
     *
     * @param array<string, mixed>|string|null $extraParam
     */
    public function inquire(
        string $bizInquryNo,
        string $payeeType,
        string $payeeAccount,
        ?string $payeeName = null,
        ?string $payeeCode = null,
        array|string|null $extraParam = null,
        ?string $attach = null,
        ?RequestOptions $options = null,
    ): Envelope {
        return $this->call('inquire', get_defined_vars());
    }

    /**
     * Creates and submits a transfer (payout). bizTransferNo is the idempotency key.
     *
     * @param int|float $amount pesos, at most 2 decimals
     * @param array<string, mixed>|string|null $extraParam
     */
    public function transfer(
        string $bizTransferNo,
        int|float $amount,
        string $payeeType,
        string $payeeAccount,
        ?string $title = null,
        ?string $reason = null,
        ?string $payeeName = null,
        ?string $payeeCode = null,
        array|string|null $extraParam = null,
        ?string $attach = null,
        ?string $notifyUrl = null,
        ?RequestOptions $options = null,
    ): Envelope {
        return $this->call('transfer', get_defined_vars());
    }

    /** A payment order by orderNo or bizOrderNo. */
    public function queryPayOrder(?string $orderNo = null, ?string $bizOrderNo = null, ?RequestOptions $options = null): Envelope
    {
        self::requireOne(['orderNo' => $orderNo, 'bizOrderNo' => $bizOrderNo]);
        return $this->call('queryPayOrder', get_defined_vars());
    }

    /** A transfer by transferNo or bizTransferNo. */
    public function queryTransferOrder(?string $transferNo = null, ?string $bizTransferNo = null, ?RequestOptions $options = null): Envelope
    {
        self::requireOne(['transferNo' => $transferNo, 'bizTransferNo' => $bizTransferNo]);
        return $this->call('queryTransferOrder', get_defined_vars());
    }

    /**
     * Refunds a paid order (orderNo or bizOrderNo) to its payer's account: all that is left, or `amount`;
     * idempotent on bizRefundNo.
     *
     * @param int|float|null $amount pesos, at most 2 decimals; null: all that is left
     */
    public function refund(
        string $bizRefundNo,
        ?string $orderNo = null,
        ?string $bizOrderNo = null,
        int|float|null $amount = null,
        ?string $reason = null,
        ?string $notifyUrl = null,
        ?RequestOptions $options = null,
    ): Envelope {
        self::requireOne(['orderNo' => $orderNo, 'bizOrderNo' => $bizOrderNo]);
        return $this->call('refund', get_defined_vars());
    }

    /** A refund by refundNo or bizRefundNo, with its CEP facts once it succeeded. */
    public function queryRefund(?string $refundNo = null, ?string $bizRefundNo = null, ?RequestOptions $options = null): Envelope
    {
        self::requireOne(['refundNo' => $refundNo, 'bizRefundNo' => $bizRefundNo]);
        return $this->call('queryRefund', get_defined_vars());
    }

    /** Asks the platform to re-read a payment order's status from upstream: data is {orderStatus, adjust}. */
    public function syncPayOrder(?string $orderNo = null, ?string $bizOrderNo = null, ?RequestOptions $options = null): Envelope
    {
        self::requireOne(['orderNo' => $orderNo, 'bizOrderNo' => $bizOrderNo]);
        return $this->call('syncPayOrder', get_defined_vars());
    }

    /** The MXN balance now: data is {currency, available, pending, frozen}, in pesos. */
    public function balance(?RequestOptions $options = null): Envelope
    {
        return $this->call('balance', get_defined_vars());
    }

    /**
     * One page of the statement: records in [startTime, endTime), oldest first; data is {records, nextCursor?}.
     *
     * @param string $startTime yyyy-MM-dd HH:mm:ss, included
     * @param string $endTime yyyy-MM-dd HH:mm:ss, excluded; at most 31 days after startTime
     * @param int|null $limit records per page, 1..500 (default 100)
     * @param string|null $cursor the previous page's nextCursor
     */
    public function balanceRecords(
        string $startTime,
        string $endTime,
        ?int $limit = null,
        ?string $cursor = null,
        ?RequestOptions $options = null,
    ): Envelope {
        return $this->call('balanceRecords', get_defined_vars());
    }

    /**
     * The payout and pay-in limits in effect and today's and this month's usage (Mexico City days);
     * data is {limits: {payout: {perTransfer, daily, dailyCount, monthly}, payin: {perOrder}}, usage}.
     */
    public function queryLimits(?RequestOptions $options = null): Envelope
    {
        return $this->call('queryLimits', get_defined_vars());
    }

    /**
     * Registers a payee (with registered payees only on, transfers go only to usable ones): data is
     * {payeeId, status: cooling|usable, usableAt, ...}. Registering the same account again answers it.
     */
    public function registerPayee(
        string $payeeType,
        string $payeeAccount,
        string $payeeName,
        ?string $payeeCode = null,
        ?RequestOptions $options = null,
    ): Envelope {
        return $this->call('registerPayee', get_defined_vars());
    }

    /**
     * One page of the registered payees, newest first; data is {payees, nextCursor?}.
     *
     * @param int|null $limit payees per page
     * @param string|null $cursor the previous page's nextCursor
     */
    public function queryPayees(?int $limit = null, ?string $cursor = null, ?RequestOptions $options = null): Envelope
    {
        return $this->call('queryPayees', get_defined_vars());
    }

    /** Removes a registered payee at once; transfers to it are refused from now (40009). */
    public function removePayee(string $payeeId, ?RequestOptions $options = null): Envelope
    {
        return $this->call('removePayee', get_defined_vars());
    }

    /**
     * Creates a batch payout of 1..1,000 items (each an array of a transfer's fields: bizTransferNo,
     * amount, payeeType, payeeAccount, ...), funded as one; data is {batchNo, bizBatchNo, status, count,
     * amount, fee}.
     *
     * @param list<array<string, mixed>> $items
     */
    public function transferBatch(
        string $bizBatchNo,
        array $items,
        ?string $notifyUrl = null,
        ?RequestOptions $options = null
    ): Envelope {
        return $this->call('transferBatch', get_defined_vars());
    }

    /** A batch payout by batchNo or bizBatchNo and one page of its items; follow nextCursor. */
    public function queryTransferBatch(
        ?string $batchNo = null,
        ?string $bizBatchNo = null,
        ?string $cursor = null,
        ?int $limit = null,
        ?RequestOptions $options = null
    ): Envelope {
        return $this->call('queryTransferBatch', get_defined_vars());
    }

    /**
     * Every record of the statement, page after page (following nextCursor). A page answered with a
     * non-zero code throws ApiException.
     *
     * @return \Generator<int, array<string, mixed>>
     */
    public function allBalanceRecords(string $startTime, string $endTime, ?int $limit = null, ?string $cursor = null): \Generator
    {
        do {
            $page = $this->balanceRecords($startTime, $endTime, $limit, $cursor)->unwrap();
            yield from $page['records'];
            $cursor = $page['nextCursor'] ?? null;
        } while ($cursor !== null);
    }

    /**
     * Signs $params, POSTs them to $path and returns the verified envelope: for a path this SDK does not
     * know yet. Retried only when you say repeating it is safe.
     *
     * @param array<string, mixed> $params
     */
    public function request(string $path, array $params, ?RequestOptions $options = null, bool $retrySafe = false): Envelope
    {
        return $this->send($path, $params, $options, $retrySafe);
    }

    /**
     * The signed body the client would send for $params (for logging or your own transport).
     *
     * @param array<string, mixed> $params
     * @return array<string, mixed>
     */
    public function signedBody(array $params, ?RequestOptions $options = null): array
    {
        $body = [];
        foreach ($params as $key => $value) {
            if ($value === null || $key === 'sign') {
                continue;
            }
            if ($key === 'extraParam' && is_array($value)) {
                $value = json_encode($value, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
            }
            $body[$key] = $value;
        }
        $body['mchNo'] = $this->mchNo;
        $body['reqTime'] = (new \DateTimeImmutable('now', $this->timeZone))->format('Y-m-d H:i:s');
        $body['nonceStr'] = $options?->nonceStr ?? bin2hex(random_bytes(16));
        $appId = $options?->appId ?? $this->appId;
        if ($appId !== null) {
            $body['appId'] = $appId;
        }
        if ($options?->clientIp !== null) {
            $body['clientIp'] = $options->clientIp;
        }
        $body['sign'] = Signing::sign($body, $this->privateKey);
        return $body;
    }

    /** @param array<string, mixed> $arguments the typed call's arguments, by API field name */
    private function call(string $operation, array $arguments): Envelope
    {
        $options = $arguments['options'] ?? null;
        unset($arguments['options']);
        $endpoint = Endpoints::ALL[$operation];
        return $this->send($endpoint['path'], $arguments, $options, $endpoint['retry']);
    }

    /** @param array<string, mixed> $params */
    private function send(string $path, array $params, ?RequestOptions $options, bool $retrySafe): Envelope
    {
        // A caller's own nonce cannot be sent twice (20054), so it turns retries off.
        $retries = $retrySafe && $options?->nonceStr === null ? $this->maxRetries : 0;
        $headers = ['content-type' => 'application/json', 'accept' => 'application/json'];
        if ($options?->traceparent !== null) {
            $headers['traceparent'] = $options->traceparent;
        }
        for ($attempt = 0; ; $attempt++) {
            // Signed afresh on every attempt: a new reqTime and nonceStr.
            $body = self::encode($this->signedBody($params, $options));
            try {
                $reply = $this->transport->post($this->baseUrl . $path, $body, $headers, $this->timeoutSeconds);
            } catch (NetworkException $e) {
                if ($attempt < $retries) {
                    ($this->sleep)($this->backoff($attempt, null));
                    continue;
                }
                throw $e;
            }
            if ($attempt < $retries && in_array($reply['status'], self::RETRY_STATUSES, true)) {
                ($this->sleep)($this->backoff($attempt, $reply['headers']['retry-after'] ?? null));
                continue;
            }
            return $this->verifiedEnvelope($path, $reply['status'], $reply['body']);
        }
    }

    private function backoff(int $attempt, ?string $retryAfter): float
    {
        if ($retryAfter !== null && is_numeric($retryAfter)) {
            return min((float) $retryAfter, self::MAX_BACKOFF_SECONDS);
        }
        $delay = min($this->retryBaseDelaySeconds * (2 ** $attempt), self::MAX_BACKOFF_SECONDS);
        return $delay * (0.5 + mt_rand() / mt_getrandmax() / 2);
    }

    private function verifiedEnvelope(string $path, int $status, string $text): Envelope
    {
        // Decoded twice: as objects to verify ({} and [] stay apart), as arrays for the caller.
        $object = json_decode($text, false);
        if (!$object instanceof \stdClass || !is_int($object->code ?? null) || !is_string($object->msg ?? null)) {
            throw new HttpException("POST $path: HTTP $status without an API envelope", $status, substr($text, 0, 500));
        }
        $sign = $object->sign ?? null;
        if (!is_string($sign) || $sign === '') {
            throw new SignatureException("POST $path: the reply is not signed", $text);
        }
        if (!Signing::verify($object, $sign, $this->platformKey)) {
            throw new SignatureException("POST $path: the reply's signature does not verify with the platform public key", $text);
        }
        /** @var array<string, mixed> $raw */
        $raw = json_decode($text, true);
        return new Envelope(
            $raw['code'],
            $raw['msg'],
            $raw['data'] ?? null,
            $sign,
            (string) ($raw['resTime'] ?? ''),
            (string) ($raw['traceId'] ?? ''),
            $raw,
        );
    }

    /** JSON for the wire; floats written in shortest round-trip form whatever php.ini says. */
    private static function encode(array $body): string
    {
        $saved = ini_get('serialize_precision');
        ini_set('serialize_precision', '-1');
        try {
            return json_encode($body, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
        } finally {
            ini_set('serialize_precision', (string) $saved);
        }
    }

    /** @param array<string, ?string> $refs */
    private static function requireOne(array $refs): void
    {
        foreach ($refs as $value) {
            if ($value !== null && $value !== '') {
                return;
            }
        }
        throw new \InvalidArgumentException('give ' . implode(' or ', array_keys($refs)));
    }
}
