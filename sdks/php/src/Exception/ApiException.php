<?php

declare(strict_types=1);

namespace Agentpay\Exception;

/** Thrown by Envelope::unwrap() for a reply whose code is not 0: getCode() is the API code, $msg its text. */
final class ApiException extends AgentpayException
{
    public function __construct(int $code, public readonly string $msg, public readonly string $traceId)
    {
        parent::__construct("agentpay $code: $msg (traceId $traceId)", $code);
    }
}
