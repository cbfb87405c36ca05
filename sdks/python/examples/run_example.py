"""sdks/python/run-example: the example every agentpay SDK has (sdks/README.md).

  run-example pay-and-query    creates a pay order, queries it, prints {"orderNo","bizOrderNo","status","clabe"}
  run-example verify-callback  reads a callback body on stdin, prints ok or bad
"""

import json
import os
import re
import secrets
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from agentpay import AgentpayError, Client, SignatureError, centavos_to_amount, load_public_key, parse_pay_body, verify_callback  # noqa: E402


def env(name, default=None):
    value = os.environ.get(name) or default
    if not value:
        sys.exit(f"run-example: set {name}")
    return value


def pem(name):
    path = env(name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        sys.exit(f"run-example: cannot read {name} ({path}): {e.strerror}")


def pay_and_query():
    amount_text = env("AGENTPAY_AMOUNT", "12.34")
    match = re.match(r"^(\d+)(?:\.(\d{1,2}))?$", amount_text)
    if not match:
        sys.exit(f"run-example: AGENTPAY_AMOUNT must be pesos with at most 2 decimals, not {amount_text}")
    # Integer centavos from the text, then the API's number: no float arithmetic on money.
    amount = centavos_to_amount(int(match.group(1)) * 100 + int((match.group(2) or "").ljust(2, "0")))
    try:
        client = Client(
            env("AGENTPAY_URL"),
            env("AGENTPAY_MCH_NO"),
            pem("AGENTPAY_PRIVATE_KEY"),
            pem("AGENTPAY_PLATFORM_PUBLIC_KEY"),
        )
        biz_order_no = f"PY-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(4)}"
        # Both replies are verified with the platform key before they are returned.
        created = client.pay(
            biz_order_no=biz_order_no, title="agentpay Python SDK example", method="mex_virtual_account", amount=amount
        ).unwrap()
        order = client.query_pay_order(order_no=created["orderNo"]).unwrap()
        pay_body = parse_pay_body(created["payBody"])
    except AgentpayError as e:
        print(f"run-example: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"run-example: {e}", file=sys.stderr)
        return 2
    print(json.dumps({"orderNo": order["orderNo"], "bizOrderNo": order["bizOrderNo"], "status": order["status"], "clabe": pay_body["clabe"]}))
    return 0


def verify_callback_from_stdin():
    try:
        key = load_public_key(pem("AGENTPAY_PLATFORM_PUBLIC_KEY"))
    except ValueError as e:
        print(f"run-example: {e}", file=sys.stderr)
        return 2
    try:
        verify_callback(sys.stdin.buffer.read(), key)
    except SignatureError:
        print("bad")
        return 1
    print("ok")
    return 0


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "pay-and-query":
        return pay_and_query()
    if command == "verify-callback":
        return verify_callback_from_stdin()
    print("usage: run-example pay-and-query | verify-callback", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
