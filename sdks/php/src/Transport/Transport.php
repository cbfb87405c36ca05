<?php

declare(strict_types=1);

namespace Agentpay\Transport;

use Agentpay\Exception\NetworkException;

/** Sends one POST. The default is CurlTransport; give your own to Client for a proxy or for tests. */
interface Transport
{
    /**
     * @param array<string, string> $headers
     * @return array{status: int, body: string, headers: array<string, string>} headers with lower-case names
     * @throws NetworkException when no reply came (connection failure or timeout)
     */
    public function post(string $url, string $body, array $headers, float $timeoutSeconds): array;
}
