<?php

declare(strict_types=1);

namespace Agentpay;

use OpenSSLAsymmetricKey;
use stdClass;

/** RSA keys and RSASSA-PKCS1-v1_5 SHA-256 signatures over the canonical string (ext-openssl). */
final class Signing
{
    private const MIN_RSA_BITS = 2048;
    // base64_decode in strict mode still accepts a missing padding; a signature must be exact Base64.
    private const BASE64 = '~^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$~';

    /** The merchant's RSA private key (PKCS#8 or PKCS#1 PEM text), checked to be RSA of 2048 bits or more. */
    public static function privateKey(string|OpenSSLAsymmetricKey $pem, string $what = 'privateKey'): OpenSSLAsymmetricKey
    {
        if ($pem instanceof OpenSSLAsymmetricKey) {
            return self::checkRsa($pem, $what, true);
        }
        if (!str_contains($pem, 'PRIVATE KEY-----')) {
            throw new \InvalidArgumentException("$what: expected a PEM private key");
        }
        $key = openssl_pkey_get_private($pem);
        if ($key === false) {
            throw new \InvalidArgumentException("$what: the PEM private key could not be read");
        }
        return self::checkRsa($key, $what, true);
    }

    /** An RSA public key (SPKI or PKCS#1 PEM text), checked to be RSA of 2048 bits or more. */
    public static function publicKey(string|OpenSSLAsymmetricKey $pem, string $what = 'platformPublicKey'): OpenSSLAsymmetricKey
    {
        if ($pem instanceof OpenSSLAsymmetricKey) {
            return self::checkRsa($pem, $what, false);
        }
        if (str_contains($pem, 'PRIVATE KEY-----')) {
            // openssl would quietly take the public half: a private key here is a mix-up.
            throw new \InvalidArgumentException("$what: expected a public key, got a private key");
        }
        $key = openssl_pkey_get_public($pem);
        if ($key === false) {
            throw new \InvalidArgumentException("$what: the PEM public key could not be read");
        }
        return self::checkRsa($key, $what, false);
    }

    /**
     * Base64 signature of the canonical string of $object.
     *
     * @param array<string|int, mixed>|stdClass $object
     */
    public static function sign(array|stdClass $object, OpenSSLAsymmetricKey $privateKey): string
    {
        if (!openssl_sign(Canonical::string($object), $signature, $privateKey, OPENSSL_ALGO_SHA256)) {
            throw new \RuntimeException('signing failed: ' . (string) openssl_error_string());
        }
        return base64_encode($signature);
    }

    /**
     * Whether $signature is a valid signature of $object's canonical string; never throws.
     *
     * @param array<string|int, mixed>|stdClass $object
     */
    public static function verify(array|stdClass $object, mixed $signature, OpenSSLAsymmetricKey $publicKey): bool
    {
        if (!is_string($signature) || $signature === '' || !preg_match(self::BASE64, $signature)) {
            return false;
        }
        try {
            $canonical = Canonical::string($object);
        } catch (\InvalidArgumentException) {
            return false; // a value the canonical string cannot render was not signed by the platform
        }
        return openssl_verify($canonical, (string) base64_decode($signature, true), $publicKey, OPENSSL_ALGO_SHA256) === 1;
    }

    private static function checkRsa(OpenSSLAsymmetricKey $key, string $what, bool $private): OpenSSLAsymmetricKey
    {
        $details = openssl_pkey_get_details($key);
        if ($details === false || ($details['type'] ?? null) !== OPENSSL_KEYTYPE_RSA) {
            throw new \InvalidArgumentException("$what: expected an RSA key");
        }
        if ($private && !isset($details['rsa']['d'])) {
            throw new \InvalidArgumentException("$what: expected a private key");
        }
        if ($details['bits'] < self::MIN_RSA_BITS) {
            throw new \InvalidArgumentException("$what: RSA-{$details['bits']} is too short, at least 2048 bits");
        }
        return $key;
    }
}
