"""The merchant endpoints: operationId → path, the typed call's name on Client, and whether repeating the
call is safe (a retry then cannot do anything twice). Written by hand from docs/openapi.json; the
project's tests fail when the two differ (sdks/README.md)."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Endpoint", "ENDPOINTS"]


class Endpoint(NamedTuple):
    path: str
    method: str
    retry: bool


ENDPOINTS = {
    # Creates carrying the merchant's own number: a repeat returns the existing object.
    "pay": Endpoint("/gateway/pay", "pay", True),
    "inquire": Endpoint("/gateway/inqury", "inquire", True),
    "transfer": Endpoint("/gateway/transfer", "transfer", True),
    # Closing a closed order again answers 0.
    "close": Endpoint("/gateway/close", "close", True),
    # Reads.
    "payMethods": Endpoint("/gateway/options/pay-methods", "pay_methods", True),
    "payeeTypes": Endpoint("/gateway/options/payee-types", "payee_types", True),
    "payeeCodes": Endpoint("/gateway/options/payee-codes", "payee_codes", True),
    "queryPayOrder": Endpoint("/gateway/query/payOrder", "query_pay_order", True),
    "queryTransferOrder": Endpoint("/gateway/query/transferOrder", "query_transfer_order", True),
    # Refunds: a repeat of the same biz_refund_no answers the refund it created.
    "refund": Endpoint("/gateway/refund", "refund", True),
    "queryRefund": Endpoint("/gateway/query/refund", "query_refund", True),
    "syncPayOrder": Endpoint("/gateway/sync/order/pay", "sync_pay_order", True),
    "balance": Endpoint("/gateway/query/balance", "balance", True),
    "balanceRecords": Endpoint("/gateway/query/balanceRecords", "balance_records", True),
    # Controls on where money goes: registering an account registered already answers that registration,
    # removing a removed payee answers it as it is.
    "queryLimits": Endpoint("/gateway/query/limits", "query_limits", True),
    "registerPayee": Endpoint("/gateway/payee/register", "register_payee", True),
    "queryPayees": Endpoint("/gateway/query/payees", "query_payees", True),
    "removePayee": Endpoint("/gateway/payee/remove", "remove_payee", True),
    # Batch payouts: the same bizBatchNo with the same items answers the same batch.
    "transferBatch": Endpoint("/gateway/transfer/batch", "transfer_batch", True),
    "queryTransferBatch": Endpoint("/gateway/query/transferBatch", "query_transfer_batch", True),
}
