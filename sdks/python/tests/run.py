"""The Python SDK's tests (unittest, no dependency beyond cryptography): ``python tests/run.py`` prints one
JSON line per test ({"name","ok","error"?}) and exits 0 only when all pass; ``python tests/run.py
endpoints`` prints the endpoint table; ``python tests/run.py e2e`` calls a running platform (sdks/README.md "The executables every SDK has"). ``python -m
unittest discover -s tests -t .`` from sdks/python runs the same tests the usual way."""

import inspect
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, os.path.dirname(HERE))


def endpoints() -> int:
    from agentpay import ENDPOINTS, Client
    from agentpay.client import _camel

    table = {}
    for operation, endpoint in ENDPOINTS.items():
        method = getattr(Client, endpoint.method, None)
        if method is None:
            continue  # reported as missing by the comparison with docs/openapi.json
        parameters = [p for p in inspect.signature(method).parameters.values() if p.name not in ("self", "options")]
        table[operation] = {
            "path": endpoint.path,
            "params": [_camel(p.name) for p in parameters],
            "required": [_camel(p.name) for p in parameters if p.default is inspect.Parameter.empty],
        }
    print(json.dumps(table))
    return 0


class JsonLinesResult(unittest.TestResult):
    def _line(self, test: unittest.TestCase, error: "str | None") -> None:
        name = getattr(getattr(test, test._testMethodName, None), "report_name", None) or test.id()
        line = {"name": name, "ok": error is None}
        if error is not None:
            line["error"] = error
        print(json.dumps(line, ensure_ascii=False), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(test, None)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(test, self._exc_info_to_string(err, test).strip().splitlines()[-1])

    def addError(self, test, err):
        super().addError(test, err)
        self._line(test, self._exc_info_to_string(err, test).strip())

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(test, f"skipped: {reason}")  # nothing is skipped silently


def main() -> int:
    if sys.argv[1:] == ["endpoints"]:
        return endpoints()
    if sys.argv[1:] == ["e2e"]:
        from tests import e2e

        return e2e.run()
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=os.path.dirname(HERE))
    result = JsonLinesResult()
    suite.run(result)
    return 0 if result.wasSuccessful() and not result.skipped and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
