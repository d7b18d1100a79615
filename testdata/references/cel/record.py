#!/usr/bin/env python3
"""Records cel-python's answers to CEL expressions in cel-python.jsonl, for fedrender's
evaluator to be checked against an independent CEL implementation without it installed
(engine/src/check/cel/tests.rs, `cel_python_agrees`).

    python3 -m venv /tmp/celpy && /tmp/celpy/bin/pip install cel-python
    /tmp/celpy/bin/python testdata/references/cel/record.py [--check]

Each case is an expression evaluated with `self` bound to SELF (as JSON), and cel-python's
value as JSON: a list or map as JSON, a duration or timestamp as CEL's string() writes it,
an error as {"error": ...}. cel-python implements CEL's core (operators, macros, has(),
duration, timestamp, matches, conversions), not the string extension or Kubernetes'
libraries: those are tested against their documentation instead. Where cel-python and
cel-go (Kubernetes' CEL) differ, the case says so in `differs` and the test expects
cel-go's answer, which is given."""

import json
import sys
from importlib.metadata import version
from pathlib import Path

import celpy
from celpy import celtypes

SELF = {"name": "web", "ports": [80, 443], "labels": {"app": "web"}, "weight": 1.5,
        "empty": [], "timeout": "1m30s"}

CASES = [
    "1 + 2 * 3",
    "7 / 2",
    "-7 / 2",
    "-7 % 3",
    "7 % -3",
    "2 - 5",
    "1.5 * 2.0",
    "1.0 / 4.0",
    "9223372036854775807 + 1",
    "-9223372036854775808 - 1",
    "9223372036854775807 * 2",
    "1 / 0",
    "1 % 0",
    "2u + 3u",
    "1u - 2u",
    "1 + 1.0",
    "'a' + 'b'",
    "[1, 2] + [3]",
    "3 in [1, 2, 3]",
    "'app' in self.labels",
    "'x' in self.labels",
    "1 < 2 && 'a' < 'b' && 2.5 > 1.5",
    "'abc' < 'abd'",
    "true && false",
    "false || true",
    "!true",
    "true ? 1 : 2",
    "self.name == 'web' ? 'yes' : 'no'",
    "self.ports.all(p, p > 0)",
    "self.ports.exists(p, p == 443)",
    "self.ports.exists_one(p, p > 100)",
    "self.ports.exists_one(p, p > 0)",
    "self.ports.map(p, p * 2)",
    "self.ports.filter(p, p < 100)",
    "self.labels.all(k, k == 'app')",
    "[].all(x, x > 0)",
    "[].exists(x, x > 0)",
    "has(self.name)",
    "has(self.missing)",
    "self.missing == 1",
    "self.missing == 1 || true",
    "true || self.missing == 1",
    "self.missing == 1 && false",
    "false && self.missing == 1",
    "self.missing == 1 || false",
    "[1, 0].all(x, 1 / x < 0)",
    "[1, 0].all(x, 1 / x > 0)",
    "[0, 1].exists(x, 1 / x > 0)",
    "size(self.ports)",
    "size('héllo')",
    "size(self.labels)",
    "self.ports[1]",
    "self.ports[2]",
    "{'a': 1, 'b': 2}['b']",
    "{'a': 1}['c']",
    "self.labels.app",
    "int('12')",
    "int(2.9)",
    "int(-2.9)",
    "int('x')",
    "uint(5)",
    "uint(-1)",
    "double(2)",
    "string(12)",
    "string(true)",
    "string(1.5)",
    "'abc'.matches('^a')",
    "'abc'.matches('^b')",
    "matches('abc', 'b.')",
    "'hello'.contains('ell')",
    "'hello'.startsWith('he')",
    "'hello'.endsWith('lo')",
    "type(1) == int",
    "type('a') == string",
    "type([]) == list",
    "duration('1m30s') == duration('90s')",
    "string(duration('1m30s'))",
    "string(duration('1.5h'))",
    "duration('1h') > duration('59m')",
    "duration('1.5h').getMinutes()",
    "duration('90s').getSeconds()",
    "duration(self.timeout) > duration('1m')",
    "duration('1x')",
    "timestamp('2024-02-29T12:30:00+02:00').getHours()",
    "timestamp('2024-02-29T12:30:00Z').getFullYear()",
    "timestamp('2024-02-29T12:30:00Z').getMonth()",
    "timestamp('2024-02-29T12:30:00Z').getDayOfMonth()",
    "timestamp('2024-02-29T12:30:00Z').getDayOfYear()",
    "timestamp('2024-03-03T00:00:00Z').getDayOfWeek()",
    "string(timestamp('2024-02-29T10:30:00Z') + duration('1h'))",
    "string(timestamp('2024-03-01T00:00:00Z') - timestamp('2024-02-28T00:00:00Z'))",
    "1 == 1.0",
    "1 == 1u",
    "[1, 'a'] == [1, 'a']",
    "{'a': [1]} == {'a': [1]}",
]

# Where cel-python answers otherwise than cel-go, the CEL that Kubernetes runs.
DIFFERS = {
    "1 == 1.0": (True, "cel-go compares numbers of different types by value (heterogeneous "
                 "equality, on in Kubernetes); cel-python refuses the overload"),
    "1 == 1u": (True, "as 1 == 1.0"),
    "string(true)": ("true", "cel-go writes a bool as CEL does, lowercase; cel-python writes "
                     "Python's True"),
}


def as_json(value):
    if isinstance(value, celtypes.BoolType):
        return bool(value)
    if isinstance(value, (celtypes.IntType, celtypes.UintType, int)):
        return int(value)
    if isinstance(value, (celtypes.DoubleType, float)):
        return float(value)
    if isinstance(value, (celtypes.DurationType, celtypes.TimestampType)):
        return str(celtypes.StringType(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, celtypes.MapType):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    if isinstance(value, celtypes.TypeType):
        return {"type": str(value)}
    raise TypeError(f"no JSON for {type(value)}")


def evaluate(environment, expression):
    try:
        program = environment.program(environment.compile(expression))
        value = program.evaluate({"self": celpy.json_to_cel(SELF)})
        if isinstance(value, celpy.CELEvalError):
            return {"error": str(value.args[0])[:100]}
        return as_json(value)
    except celpy.CELEvalError as error:
        return {"error": str(error.args[0])[:100]}


def main():
    environment = celpy.Environment()
    lines = [json.dumps({"provenance": {
        "program": f"cel-python {version('cel-python')} (PyPI), celpy.Environment with no "
                   "extensions",
        "how": "each expression compiled and evaluated with `self` bound to `self` below, "
               "the value as JSON (durations and timestamps as string() writes them, an "
               "error as {\"error\": message})",
        "self": SELF,
        "regenerate": "/tmp/celpy/bin/python testdata/references/cel/record.py",
    }}, ensure_ascii=False)]
    for expression in CASES:
        case = {"cel": expression, "cel_python": evaluate(environment, expression)}
        if expression in DIFFERS:
            case["cel_go"], case["differs"] = DIFFERS[expression]
        lines.append(json.dumps(case, ensure_ascii=False))
    text = "\n".join(lines) + "\n"
    path = Path(__file__).with_name("cel-python.jsonl")
    if "--check" in sys.argv:
        if path.read_text() != text:
            sys.exit(f"{path} differs from what cel-python answers now")
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
