<?php

declare(strict_types=1);

namespace Agentpay;

use Agentpay\Exception\ApiException;

/**
 * The signed reply of every call, verified with the platform key before you see it. `code` 0 is success;
 * any other code is a business or request failure (see ResultCode), with `data` null.
 */
final class Envelope
{
    /**
     * @param mixed $data the payload as json_decode(..., true) gives it: an array, or null on a failure and on a successful close
     * @param array<string, mixed> $raw the whole reply as received, sign included
     */
    public function __construct(
        public readonly int $code,
        public readonly string $msg,
        public readonly mixed $data,
        public readonly string $sign,
        public readonly string $resTime,
        /** W3C trace id of the request: quote it to support. */
        public readonly string $traceId,
        public readonly array $raw,
    ) {
    }

    public function isSuccess(): bool
    {
        return $this->code === ResultCode::SUCCESS;
    }

    /**
     * The payload when the code is 0; otherwise throws ApiException with the code and msg.
     *
     * @throws ApiException
     */
    public function unwrap(): mixed
    {
        if ($this->code !== ResultCode::SUCCESS) {
            throw new ApiException($this->code, $this->msg, $this->traceId);
        }
        return $this->data;
    }
}
