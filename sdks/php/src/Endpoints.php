<?php

declare(strict_types=1);

namespace Agentpay;

/**
 * The merchant endpoints: operationId (the typed call's name on Client) → path, and whether repeating the
 * call is safe (a retry then cannot do anything twice). Written by hand from docs/openapi.json;
 * the project's tests fail when the two differ (sdks/README.md).
 */
final class Endpoints
{
    /** @var array<string, array{path: string, retry: bool}> */
    public const ALL = [
        // Creates carrying the merchant's own number: a repeat returns the existing object.
        'pay' => ['path' => '/gateway/pay', 'retry' => true],
        'inquire' => ['path' => '/gateway/inqury', 'retry' => true],
        'transfer' => ['path' => '/gateway/transfer', 'retry' => true],
        // Closing a closed order again answers 0.
        'close' => ['path' => '/gateway/close', 'retry' => true],
        // Reads.
        'payMethods' => ['path' => '/gateway/options/pay-methods', 'retry' => true],
        'payeeTypes' => ['path' => '/gateway/options/payee-types', 'retry' => true],
        'payeeCodes' => ['path' => '/gateway/options/payee-codes', 'retry' => true],
        'queryPayOrder' => ['path' => '/gateway/query/payOrder', 'retry' => true],
        'queryTransferOrder' => ['path' => '/gateway/query/transferOrder', 'retry' => true],
        // Refunds: a repeat of the same bizRefundNo answers the refund it created.
        'refund' => ['path' => '/gateway/refund', 'retry' => true],
        'queryRefund' => ['path' => '/gateway/query/refund', 'retry' => true],
        'syncPayOrder' => ['path' => '/gateway/sync/order/pay', 'retry' => true],
        'balance' => ['path' => '/gateway/query/balance', 'retry' => true],
        'balanceRecords' => ['path' => '/gateway/query/balanceRecords', 'retry' => true],
        // Controls on where money goes: registering an account registered already answers that
        // registration, removing a removed payee answers it as it is.
        'queryLimits' => ['path' => '/gateway/query/limits', 'retry' => true],
        'registerPayee' => ['path' => '/gateway/payee/register', 'retry' => true],
        'queryPayees' => ['path' => '/gateway/query/payees', 'retry' => true],
        'removePayee' => ['path' => '/gateway/payee/remove', 'retry' => true],
        // Batch payouts: the same bizBatchNo with the same items answers the same batch.
        'transferBatch' => ['path' => '/gateway/transfer/batch', 'retry' => true],
        'queryTransferBatch' => ['path' => '/gateway/query/transferBatch', 'retry' => true],
    ];
}
