<?php

declare(strict_types=1);

namespace Agentpay\Exception;

/** A reply that is not an API envelope at all (a proxy's error page, an empty body). */
final class HttpException extends AgentpayException
{
    /** @param string $bodyText the first 500 bytes of the body */
    public function __construct(string $message, public readonly int $status, public readonly string $bodyText)
    {
        parent::__construct($message);
    }
}
