<?php

declare(strict_types=1);

namespace Agentpay\Exception;

/** Base class of everything the SDK throws. */
class AgentpayException extends \RuntimeException
{
}
