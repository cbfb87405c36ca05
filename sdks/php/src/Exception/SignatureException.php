<?php

declare(strict_types=1);

namespace Agentpay\Exception;

/**
 * A reply or callback that is unsigned or whose signature does not verify with the platform public key.
 * Never act on its content: it did not come from the platform, or was changed on the way.
 */
final class SignatureException extends AgentpayException
{
    /** @param mixed $body what was received, for logging */
    public function __construct(string $message, public readonly mixed $body = null)
    {
        parent::__construct($message);
    }
}
