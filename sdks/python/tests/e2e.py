"""``run-tests e2e``: every typed call against a running platform (sdks/README.md), with the merchant from
AGENTPAY_URL, AGENTPAY_MCH_NO, AGENTPAY_PRIVATE_KEY and AGENTPAY_PLATFORM_PUBLIC_KEY; one JSON line per
call, named ``e2e: <operationId>``. The merchant needs an available balance for the transfer. Not
collected by unittest discovery (the file name does not start with test_)."""

import json
import os
import re
import secrets
import traceback
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from agentpay import DEFAULT_TIME_ZONE, Client, ResultCode, parse_pay_body


def _read(name):
    with open(os.environ[name], encoding="utf-8") as f:
        return f.read()


def run() -> int:
    client = Client(
        os.environ["AGENTPAY_URL"],
        os.environ["AGENTPAY_MCH_NO"],
        _read("AGENTPAY_PRIVATE_KEY"),
        _read("AGENTPAY_PLATFORM_PUBLIC_KEY"),
    )
    run_id = secrets.token_hex(4)
    state = {}
    failures = 0

    def codes(items):
        return [item["code"] for item in items]

    def pay_methods():
        assert codes(client.pay_methods().unwrap()) == ["mex_virtual_account"]

    def payee_types():
        assert "spei_transfer" in codes(client.payee_types().unwrap())

    def payee_codes():
        assert "40012" in codes(client.payee_codes(payee_type="spei_transfer").unwrap())

    def pay():
        params = dict(
            biz_order_no=f"PY-E2E-{run_id}",
            title="Cinco pesos ñ",
            method="mex_virtual_account",
            amount=5.0,  # signed as 5, as the platform reads it
            extra_param={"customer": {"id": "C-9", "note": None}},
        )
        order = client.pay(**params).unwrap()
        state["order"] = order
        assert order["status"] == "wait", order
        assert re.match(r"^\d{18}$", parse_pay_body(order["payBody"])["clabe"])
        assert client.pay(**params).unwrap()["orderNo"] == order["orderNo"], "a repeat returns the same order"
        changed = client.pay(**dict(params, amount=6))
        assert (changed.code, changed.data) == (ResultCode.DUPLICATE_ORDER, None), changed

    def query_pay_order():
        queried = client.query_pay_order(biz_order_no=f"PY-E2E-{run_id}").unwrap()
        assert (queried["orderNo"], queried["amount"], queried["status"]) == (state["order"]["orderNo"], 5, "wait"), queried
        assert client.query_pay_order(biz_order_no=f"PY-NONE-{run_id}").code == ResultCode.ORDER_NOT_FOUND

    def sync_pay_order():
        assert client.sync_pay_order(order_no=state["order"]["orderNo"]).unwrap()["orderStatus"] == "wait"

    def close():
        closed = client.close(order_no=state["order"]["orderNo"], use_cancel=True)
        assert (closed.code, closed.data) == (0, None), closed
        assert client.query_pay_order(order_no=state["order"]["orderNo"]).unwrap()["status"] == "cancel"

    def inquire():
        inquiry = client.inquire(
            biz_inqury_no=f"PY-INQ-{run_id}", payee_type="spei_transfer", payee_account="646180110400000007", payee_name="Ana"
        ).unwrap()
        assert (inquiry["status"], inquiry["accountValid"]) == ("valid", True), inquiry

    def transfer():
        result = client.transfer(
            biz_transfer_no=f"PY-TR-{run_id}", amount=1.5, payee_type="spei_transfer", payee_account="646180110400000007", payee_name="Ana"
        ).unwrap()
        assert result["bizTransferNo"] == f"PY-TR-{run_id}", result

    def query_transfer_order():
        queried = client.query_transfer_order(biz_transfer_no=f"PY-TR-{run_id}").unwrap()
        assert (queried["amount"], queried["payeeCode"]) == (1.5, "90646"), queried

    def refund():
        # The order was cancelled, never paid: nothing to refund, and nothing created under the number.
        refused = client.refund(order_no=state["order"]["orderNo"], biz_refund_no=f"PY-RF-{run_id}")
        assert (refused.code, refused.data) == (ResultCode.REFUND_NOT_POSSIBLE, None), refused
        assert "order not paid" in refused.msg, refused

    def query_refund():
        assert client.query_refund(biz_refund_no=f"PY-RF-{run_id}").code == ResultCode.REFUND_NOT_FOUND

    def transfer_batch():
        items = [
            {"bizTransferNo": f"PY-BI-{run_id}-{i}", "amount": 1, "payeeType": "spei_transfer",
             "payeeAccount": "646180110400000007", "payeeName": "Ana"}
            for i in range(2)
        ]
        batch = client.transfer_batch(biz_batch_no=f"PY-BATCH-{run_id}", items=items).unwrap()
        assert (batch["bizBatchNo"], batch["count"], batch["status"]) == (f"PY-BATCH-{run_id}", 2, "progress"), batch
        state["batchNo"] = batch["batchNo"]

    def query_transfer_batch():
        page = client.query_transfer_batch(batch_no=state["batchNo"]).unwrap()
        assert sorted(i["bizTransferNo"] for i in page["items"]) == [f"PY-BI-{run_id}-0", f"PY-BI-{run_id}-1"], page

    def balance():
        assert client.balance().unwrap()["currency"] == "MXN"

    def balance_records():
        now = datetime.now(ZoneInfo(DEFAULT_TIME_ZONE))
        start = (now - timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
        end = (now + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
        assert len(client.balance_records(start_time=start, end_time=end, limit=1).unwrap()["records"]) == 1
        mine = [r for r in client.all_balance_records(start_time=start, end_time=end, limit=2) if r.get("bizTransferNo") == f"PY-TR-{run_id}"]
        assert "transfer_freeze" in [r["type"] for r in mine], mine

    def query_limits():
        limits = client.query_limits().unwrap()
        assert "perTransfer" in limits["limits"]["payout"], limits

    def register_payee():
        payee = client.register_payee(payee_type="spei_transfer", payee_account="646180110400000007", payee_name="Ana Payee").unwrap()
        assert payee["status"] in ("cooling", "usable"), payee
        state["payeeId"] = payee["payeeId"]

    def query_payees():
        page = client.query_payees(limit=50).unwrap()
        assert state["payeeId"] in [p["payeeId"] for p in page["payees"]], page

    def remove_payee():
        assert client.remove_payee(payee_id=state["payeeId"]).unwrap()["status"] == "removed"

    steps = [
        ("payMethods", pay_methods),
        ("payeeTypes", payee_types),
        ("payeeCodes", payee_codes),
        ("pay", pay),
        ("queryPayOrder", query_pay_order),
        ("syncPayOrder", sync_pay_order),
        ("close", close),
        ("inquire", inquire),
        ("transfer", transfer),
        ("queryTransferOrder", query_transfer_order),
        ("refund", refund),
        ("queryRefund", query_refund),
        ("transferBatch", transfer_batch),
        ("queryTransferBatch", query_transfer_batch),
        ("balance", balance),
        ("balanceRecords", balance_records),
        ("queryLimits", query_limits),
        ("registerPayee", register_payee),
        ("queryPayees", query_payees),
        ("removePayee", remove_payee),
    ]
    for operation, step in steps:
        line = {"name": f"e2e: {operation}", "ok": True}
        try:
            step()
        except Exception as e:  # reported, not raised: every call gets its line
            failures += 1
            line = {"name": f"e2e: {operation}", "ok": False, "error": f"{type(e).__name__}: {e} {traceback.format_exc(limit=2)}"}
        print(json.dumps(line, ensure_ascii=False), flush=True)
    return 0 if failures == 0 else 1
