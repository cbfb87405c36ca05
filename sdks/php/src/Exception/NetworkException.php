<?php

declare(strict_types=1);

namespace Agentpay\Exception;

/**
 * No reply: connection refused or reset, DNS failure, or the timeout passed. For pay, transfer and
 * inquire the outcome is then unknown: repeat the call with the same biz number (it is idempotent) or query.
 */
final class NetworkException extends AgentpayException
{
    public function __construct(string $message, public readonly bool $timedOut = false)
    {
        parent::__construct($message);
    }
}
