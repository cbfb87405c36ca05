import json
import os
import random
import struct
import unittest
from decimal import Decimal

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from agentpay import (
    CALLBACK_SUCCESS,
    ENDPOINTS,
    ApiError,
    Client,
    HttpError,
    NetworkError,
    RequestOptions,
    ResultCode,
    SignatureError,
    amount_to_centavos,
    canonical_string,
    centavos_to_amount,
    es_number,
    is_pay_order_callback,
    jcs,
    load_private_key,
    load_public_key,
    parse_pay_body,
    sign,
    verify,
    verify_callback,
)

VECTORS_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "vectors", "signing.json")
with open(VECTORS_PATH, encoding="utf-8") as f:
    VECTORS = json.load(f)

KEYS = {
    who: (load_private_key(VECTORS["keys"][who]["privateKey"]), load_public_key(VECTORS["keys"][who]["publicKey"]))
    for who in ("merchant", "platform")
}
OTHER = {"merchant": "platform", "platform": "merchant"}


def vector_object(case):
    """A vector's object as Python reads it: from its JSON text when it has one (5.0 stays a float)."""
    return json.loads(case["json"]) if "json" in case else case["object"]


def named(name):
    def mark(fn):
        fn.report_name = name
        return fn

    return mark


class Vectors(unittest.TestCase):
    """Every case of sdks/vectors/signing.json, byte for byte: one test per case."""


def _vector_test(case):
    @named(f"vector: {case['name']}")
    def test(self):
        obj = vector_object(case)
        self.assertEqual(canonical_string(obj), case["canonical"])
        self.assertEqual(sign(obj, KEYS[case["signer"]][0]), case["sign"])
        self.assertTrue(verify(obj, case["sign"], KEYS[case["signer"]][1]))
        self.assertFalse(verify(obj, case["sign"], KEYS[OTHER[case["signer"]]][1]))

    return test


def _negative_test(case):
    @named(f"negative: {case['name']}")
    def test(self):
        obj = vector_object(case)
        self.assertEqual(canonical_string(obj), case["canonical"])
        self.assertFalse(verify(obj, obj["sign"], KEYS["merchant"][1]))
        self.assertFalse(verify(obj, obj["sign"], KEYS["platform"][1]))

    return test


for _i, _case in enumerate(VECTORS["cases"]):
    setattr(Vectors, f"test_case_{_i:02d}", _vector_test(_case))
for _i, _case in enumerate(VECTORS["negative"]):
    setattr(Vectors, f"test_negative_{_i:02d}", _negative_test(_case))


class CanonicalForm(unittest.TestCase):
    def test_renders_python_numbers_as_ecmascript_string(self):
        cases = [
            (5.0, "5"), (5, "5"), (100.50, "100.5"), (0.01, "0.01"), (99999999.99, "99999999.99"),
            (1e-7, "1e-7"), (0.000001, "0.000001"), (1.5e-7, "1.5e-7"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (-0.0, "0"), (0.1 + 0.2, "0.30000000000000004"), (-12.5, "-12.5"), (123e-20, "1.23e-18"),
            (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (2**53, "9007199254740992"),
            (2**53 + 1, "9007199254740992"), (10**21, "1e+21"), (-1e-7, "-1e-7"), (123456789012345680000.0, "123456789012345680000"),
            (0.000001234, "0.000001234"), (Decimal("100.50"), "100.5"),
        ]
        for value, text in cases:
            self.assertEqual(es_number(value), text, repr(value))

    def test_renders_every_number_so_that_it_reads_back_as_the_same_double(self):
        rng = random.Random(39)
        for _ in range(20000):
            value = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if value != value or value in (float("inf"), float("-inf")):
                continue
            self.assertEqual(float(es_number(value)), value)

    def test_signs_a_dict_the_merchant_builds_as_the_platform_reads_it(self):
        params = {"mchNo": "M1", "reqTime": "2026-11-21 10:20:00", "amount": 5.0, "attach": None, "description": "", "useCancel": False, "tags": ["a", None, 2.0]}
        self.assertEqual(canonical_string(params), 'amount=5&mchNo=M1&reqTime=2026-11-21 10:20:00&tags=["a",null,2]&useCancel=false')
        self.assertEqual(jcs({"b": [], "c": "x/y", "a": {}, "d": (1, 2)}), '{"a":{},"b":[],"c":"x/y","d":[1,2]}')
        self.assertEqual(jcs("\ud800 lone"), '"\\ud800 lone"')

    def test_refuses_values_with_no_json_form(self):
        for bad in (float("nan"), float("inf"), 10**400, object()):
            with self.assertRaises((ValueError, TypeError)):
                canonical_string({"amount": bad})


class MoneyAndKeys(unittest.TestCase):
    def test_converts_between_integer_centavos_and_amounts_exactly(self):
        self.assertEqual(centavos_to_amount(10050), 100.5)
        self.assertEqual(centavos_to_amount(100), 1)
        self.assertEqual(centavos_to_amount(1), 0.01)
        self.assertEqual(amount_to_centavos(100.5), 10050)
        self.assertEqual(amount_to_centavos(5.0), 500)
        self.assertEqual(amount_to_centavos(Decimal("99999999.99")), 9999999999)
        for bad in (0.1 + 0.2, 1.005, -1):
            with self.assertRaises(ValueError):
                amount_to_centavos(bad)
        self.assertEqual(parse_pay_body('{"clabe":"646180157000000004","amount":100.5}')["clabe"], "646180157000000004")

    def test_refuses_a_private_key_as_the_platform_key_and_keys_under_2048_bits(self):
        with self.assertRaises(ValueError):
            load_public_key(VECTORS["keys"]["platform"]["privateKey"])
        with self.assertRaises(ValueError):
            load_private_key(VECTORS["keys"]["merchant"]["publicKey"])
        short = rsa.generate_private_key(public_exponent=65537, key_size=1024).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        with self.assertRaises(ValueError):
            load_private_key(short)


class ScriptedTransport:
    """Records each request and answers from a script of replies (tuples) or exceptions."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []

    def post(self, url, body, headers, timeout):
        self.requests.append({"url": url, "body": json.loads(body), "raw": body, "headers": dict(headers)})
        if not self.replies:
            raise AssertionError("no reply scripted")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def signed_reply(code, msg, data, status=200, headers=None):
    reply = {"code": code, "msg": msg, "data": data, "resTime": "2026-11-21 10:15:01", "traceId": "4bf92f3577b34da6a3ce929d0e0e4736"}
    reply["sign"] = sign(reply, KEYS["platform"][0])
    return status, json.dumps(reply, ensure_ascii=False), headers or {}


def client(transport, slept=None, max_retries=2):
    return Client(
        "http://gateway.test/",
        "M100200300",
        VECTORS["keys"]["merchant"]["privateKey"],
        VECTORS["keys"]["platform"]["publicKey"],
        app_id="APP001",
        max_retries=max_retries,
        transport=transport,
        sleep=(slept.append if slept is not None else (lambda s: None)),
    )


PAY_RESULT = {"bizOrderNo": "ORD-1", "orderNo": "P1", "status": "wait", "payBody": '{"clabe":"646180157000000004","amount":5}'}


class ClientCalls(unittest.TestCase):
    def test_signs_a_pay_request_with_the_merchant_key_filling_in_the_common_parameters(self):
        transport = ScriptedTransport([signed_reply(0, "success", PAY_RESULT)])
        reply = client(transport).pay(
            biz_order_no="ORD-1",
            title="Cinco pesos ñ",
            method="mex_virtual_account",
            amount=5.0,
            extra_param={"customer": {"id": "C-9", "note": None}},
            options=RequestOptions(client_ip="203.0.113.7"),
        )
        self.assertEqual(reply.code, 0)
        self.assertEqual(reply.unwrap()["orderNo"], "P1")
        sent = transport.requests[0]
        self.assertEqual(sent["url"], "http://gateway.test/gateway/pay")
        self.assertEqual(sent["headers"]["content-type"], "application/json")
        body = sent["body"]
        self.assertEqual((body["mchNo"], body["appId"], body["clientIp"]), ("M100200300", "APP001", "203.0.113.7"))
        self.assertEqual(body["bizOrderNo"], "ORD-1")
        self.assertEqual(body["extraParam"], '{"customer":{"id":"C-9","note":null}}')
        self.assertRegex(body["reqTime"], r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
        self.assertRegex(body["nonceStr"], r"^[0-9a-f]{32}$")
        self.assertNotIn("description", body)
        self.assertTrue(verify(body, body["sign"], KEYS["merchant"][1]))

    def test_returns_a_verified_business_failure_and_unwrap_raises_it_with_code_and_msg(self):
        reply = client(ScriptedTransport([signed_reply(ResultCode.DUPLICATE_ORDER, "duplicate order", None)])).pay(
            biz_order_no="ORD-1", title="t", method="mex_virtual_account", amount=11
        )
        self.assertEqual((reply.code, reply.data, reply.is_success), (30002, None, False))
        with self.assertRaises(ApiError) as raised:
            reply.unwrap()
        self.assertEqual((raised.exception.code, raised.exception.msg), (30002, "duplicate order"))
        self.assertEqual(raised.exception.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736")

    def test_returns_a_verified_503_envelope_once_retries_are_spent(self):
        reply = client(ScriptedTransport([signed_reply(50003, "service unavailable", None, 503)]), max_retries=0).balance()
        self.assertEqual(reply.code, 50003)

    def test_refuses_changed_unsigned_and_foreign_signed_replies(self):
        status, text, headers = signed_reply(0, "success", PAY_RESULT)
        with self.assertRaises(SignatureError):
            client(ScriptedTransport([(status, text.replace('"P1"', '"P2"'), headers)])).query_pay_order(order_no="P1")
        unsigned = '{"code":0,"msg":"success","data":null,"resTime":"2026-11-21 10:15:01","traceId":"x"}'
        with self.assertRaisesRegex(SignatureError, "not signed"):
            client(ScriptedTransport([(200, unsigned, {})])).close(order_no="P1")
        foreign = {"code": 0, "msg": "success", "data": None, "resTime": "2026-11-21 10:15:01", "traceId": "x"}
        foreign["sign"] = sign(foreign, KEYS["merchant"][0])
        with self.assertRaises(SignatureError):
            client(ScriptedTransport([(200, json.dumps(foreign), {})])).close(order_no="P1")

    def test_raises_http_error_for_a_reply_that_is_no_api_envelope(self):
        transport = ScriptedTransport([(404, "<html>Not Found</html>", {})])
        with self.assertRaises(HttpError) as raised:
            client(transport).balance()
        self.assertEqual((raised.exception.status, raised.exception.body_text), (404, "<html>Not Found</html>"))
        self.assertEqual(len(transport.requests), 1)

    def test_retries_a_safe_call_after_a_network_error_signing_it_afresh(self):
        transport = ScriptedTransport([NetworkError("connection refused"), signed_reply(0, "success", PAY_RESULT)])
        slept = []
        reply = client(transport, slept).pay(biz_order_no="ORD-1", title="t", method="mex_virtual_account", amount=5)
        self.assertEqual(reply.code, 0)
        self.assertEqual(len(transport.requests), 2)
        self.assertEqual(transport.requests[1]["body"]["bizOrderNo"], "ORD-1")
        self.assertNotEqual(transport.requests[0]["body"]["nonceStr"], transport.requests[1]["body"]["nonceStr"])
        self.assertEqual(len(slept), 1)
        self.assertTrue(0.1 <= slept[0] <= 0.2)

    def test_retries_after_http_503_and_429_honouring_retry_after(self):
        transport = ScriptedTransport([(503, "busy", {}), (429, "", {"retry-after": "1"}), signed_reply(0, "success", PAY_RESULT)])
        slept = []
        self.assertEqual(client(transport, slept).query_pay_order(biz_order_no="ORD-1").code, 0)
        self.assertEqual(len(transport.requests), 3)
        self.assertEqual(slept[1], 1.0)

    def test_gives_up_after_max_retries_and_raises_the_last_network_error(self):
        transport = ScriptedTransport([NetworkError("timed out", True) for _ in range(3)])
        with self.assertRaises(NetworkError) as raised:
            client(transport).transfer(biz_transfer_no="TR-1", amount=1.5, payee_type="spei_transfer", payee_account="646180110400000007")
        self.assertTrue(raised.exception.timed_out)
        self.assertEqual(len(transport.requests), 3)

    def test_never_retries_a_call_marked_unsafe_nor_one_with_the_callers_own_nonce(self):
        transport = ScriptedTransport([NetworkError("reset")])
        with self.assertRaises(NetworkError):
            client(transport).request("/gateway/some/new/create", {"x": 1})
        self.assertEqual(len(transport.requests), 1)
        transport = ScriptedTransport([NetworkError("reset")])
        with self.assertRaises(NetworkError):
            client(transport).balance(options=RequestOptions(nonce_str="mine"))
        self.assertEqual(len(transport.requests), 1)
        self.assertEqual(transport.requests[0]["body"]["nonceStr"], "mine")

    def test_reads_every_page_of_the_statement(self):
        def record(no):
            return {"recordNo": no, "type": "pay_in", "amount": 1, "fee": 0, "createTime": "2026-11-21 10:00:00"}

        transport = ScriptedTransport([
            signed_reply(0, "success", {"records": [record("R1"), record("R2")], "nextCursor": "c2"}),
            signed_reply(0, "success", {"records": [record("R3")]}),
        ])
        numbers = [r["recordNo"] for r in client(transport).all_balance_records(start_time="2026-11-01 00:00:00", end_time="2026-12-01 00:00:00", limit=2)]
        self.assertEqual(numbers, ["R1", "R2", "R3"])
        self.assertEqual(transport.requests[1]["body"]["cursor"], "c2")

    def test_asks_for_order_no_or_biz_order_no(self):
        with self.assertRaises(ValueError):
            client(ScriptedTransport([])).query_pay_order()

    def test_sends_decimal_amounts_as_json_numbers(self):
        transport = ScriptedTransport([signed_reply(0, "success", PAY_RESULT)])
        client(transport).pay(biz_order_no="ORD-1", title="t", method="mex_virtual_account", amount=Decimal("100.50"))
        self.assertIn(b'"amount":100.5', transport.requests[0]["raw"])

    def test_has_a_typed_call_for_every_entry_of_its_endpoint_table(self):
        for operation, endpoint in ENDPOINTS.items():
            self.assertTrue(callable(getattr(Client, endpoint.method, None)), operation)


class Callbacks(unittest.TestCase):
    def _callback(self, name):
        case = next(c for c in VECTORS["cases"] if c["name"] == name)
        return dict(case["object"], sign=case["sign"])

    def test_verifies_a_callback_over_every_field_but_sign_notice_type_and_mch_no_included(self):
        for name in ("payment callback", "transfer callback"):
            body = self._callback(name)
            verified = verify_callback(json.dumps(body, ensure_ascii=False), VECTORS["keys"]["platform"]["publicKey"])
            self.assertEqual(verified["mchNo"], body["mchNo"])
            without = {k: v for k, v in body.items() if k != "noticeType"}
            with self.assertRaises(SignatureError):
                verify_callback(json.dumps(without), VECTORS["keys"]["platform"]["publicKey"])

    def test_refuses_a_callback_with_a_changed_amount_a_missing_signature_or_no_json(self):
        key = VECTORS["keys"]["platform"]["publicKey"]
        body = self._callback("payment callback")
        self.assertTrue(is_pay_order_callback(verify_callback(json.dumps(body).encode(), key)))
        changed = dict(body, data=dict(body["data"], amount=1005))
        with self.assertRaises(SignatureError):
            verify_callback(json.dumps(changed), key)
        with self.assertRaises(SignatureError):
            verify_callback(json.dumps({k: v for k, v in body.items() if k != "sign"}), key)
        with self.assertRaises(SignatureError):
            verify_callback("SUCCESS", key)
        self.assertEqual(CALLBACK_SUCCESS, "SUCCESS")
