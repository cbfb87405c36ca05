<?php

declare(strict_types=1);

namespace Agentpay\Transport;

use Agentpay\Exception\NetworkException;

/** POSTs with ext-curl. */
final class CurlTransport implements Transport
{
    public function post(string $url, string $body, array $headers, float $timeoutSeconds): array
    {
        $received = [];
        $handle = curl_init($url);
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = "$name: $value";
        }
        curl_setopt_array($handle, [
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => $body,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) ceil($timeoutSeconds * 1000),
            CURLOPT_CONNECTTIMEOUT_MS => (int) ceil(min($timeoutSeconds, 10.0) * 1000),
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $received[strtolower(trim($parts[0]))] = trim($parts[1]);
                }
                return strlen($line);
            },
        ]);
        $text = curl_exec($handle);
        if ($text === false) {
            $errno = curl_errno($handle);
            $error = curl_error($handle);
            curl_close($handle);
            throw new NetworkException("POST $url: $error", $errno === CURLE_OPERATION_TIMEDOUT);
        }
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        return ['status' => $status, 'body' => (string) $text, 'headers' => $received];
    }
}
