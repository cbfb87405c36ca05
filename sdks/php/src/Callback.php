<?php

declare(strict_types=1);

namespace Agentpay;

use Agentpay\Exception\SignatureException;
use OpenSSLAsymmetricKey;

/**
 * The callbacks the platform POSTs to a notifyUrl on every status change of an order or transfer. Verify
 * the raw body, store the change idempotently (the same change can arrive more than once), then answer
 * HTTP 200 with the body SUCCESS; anything else is retried (16 times over about 24 hours).
 *
 *     $callback = Callback::verify(file_get_contents('php://input'), $platformPublicKeyPem);
 *     // ... store $callback['data'] ...
 *     Callback::acknowledge();
 */
final class Callback
{
    /** The reply body that acknowledges a callback. */
    public const SUCCESS = 'SUCCESS';

    /**
     * Verifies a callback body (the raw request body, as received) with the platform public key, over every
     * field but sign (noticeType and mchNo included), and returns it as an array.
     *
     * @return array<string, mixed>
     * @throws SignatureException when the body is not JSON, unsigned, changed, or signed by another key: never act on it
     */
    public static function verify(string $body, string|OpenSSLAsymmetricKey $platformPublicKey): array
    {
        $key = Signing::publicKey($platformPublicKey);
        $object = json_decode($body, false);
        if (!$object instanceof \stdClass) {
            throw new SignatureException('callback body is not a JSON object', substr($body, 0, 500));
        }
        $sign = $object->sign ?? null;
        if (!is_string($sign) || $sign === '') {
            throw new SignatureException('callback is not signed', $body);
        }
        if (!Signing::verify($object, $sign, $key)) {
            throw new SignatureException('callback signature does not verify with the platform public key', $body);
        }
        $callback = json_decode($body, true);
        if (!is_array($callback['data'] ?? null) || array_is_list($callback['data'])) {
            // Signed by the platform but not a shape this SDK knows: refuse rather than guess.
            throw new SignatureException('callback has no order in data', $body);
        }
        return $callback;
    }

    /** True for a payment order's callback (its data carries orderNo). */
    public static function isPayOrder(array $callback): bool
    {
        return is_string($callback['data']['orderNo'] ?? null);
    }

    /** True for a transfer's callback (its data carries transferNo). */
    public static function isTransfer(array $callback): bool
    {
        return is_string($callback['data']['transferNo'] ?? null);
    }

    /** Answers the current PHP request with HTTP 200 and the body SUCCESS. */
    public static function acknowledge(): void
    {
        if (!headers_sent()) {
            http_response_code(200);
            header('Content-Type: text/plain; charset=utf-8');
        }
        echo self::SUCCESS;
    }
}
