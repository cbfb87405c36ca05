<?php

declare(strict_types=1);

namespace Agentpay;

/** Common parameters a caller may set per request; mchNo, reqTime, nonceStr and sign are filled in. */
final class RequestOptions
{
    public function __construct(
        /** Overrides the client's appId for this request. */
        public readonly ?string $appId = null,
        /** The paying or requesting end user's IP address (at most 64 characters). */
        public readonly ?string $clientIp = null,
        /** Your own nonce (at most 32 characters, unique within 24 h); it turns retries off for the call. */
        public readonly ?string $nonceStr = null,
        /** W3C traceparent to continue your own trace: the reply's traceId is then your trace id. */
        public readonly ?string $traceparent = null,
    ) {
    }
}
