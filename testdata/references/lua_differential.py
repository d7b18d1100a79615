#!/usr/bin/env python3
"""Random ReviseReplica scripts run through fedrender's Lua and through gopher-lua, compared.

usage: python3 testdata/references/lua_differential.py BIN_DIR [--count N] [--seed S]
                                                       [--fedrender PATH] [--show K] [--save FILE]

BIN_DIR holds the gopher-lua reference (Karmada's luavm running a ReviseReplica script; the
project's shared oracle sources build it, testdata/references/README.md says how). fedrender's
side is the engine example `revise_replica`, which takes the same input and answers in the same
form; without --fedrender the script builds it (`cargo build --release -p fedrender-engine
--example revise_replica`).

The scripts are biased to where a Lua 5.1 in C and gopher-lua part: numbers near 2^53 and 2^63,
-0.0, infinities and NaN, hexadecimal and exponent literals, strings coerced to numbers and
numbers to strings, tostring/tonumber/string.format, patterns, Unicode and invalid UTF-8, the
table functions, math, lengths, comparisons and error(). Each script stores a few values in the
object's spec and returns it. Two answers agree when both fail, or both succeed with the same
spec (numbers compared as written: 1152921504606847000 and 1152921504606846976 differ). Error
messages are not compared: the two name the script differently.

Prints the number of scripts, of differences, and the first --show differing scripts with both
answers; --save writes every differing script and both answers to FILE as JSON lines. Exit 1
when any differ.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

NUMBERS = [
    "0", "1", "-1", "2", "3", "7", "10", "-7", "0.5", "-0.5", "1.5", "2.5", "-2.5", "0.1", "100",
    "-0.0", "(-0.0)", "0.0", "1e15", "1e16", "1e17", "1e21", "1e22", "1e-5", "1e-7", "123456.789",
    "9007199254740992", "9007199254740993", "9007199254740991", "-9007199254740993",
    "2^53", "2^53+1", "2^60", "2^63", "-2^63", "2^64", "2^31", "2^32", "2^31-1",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
    "0x10", "0xff", "0XfF", "0x7fffffffffffffff", "0x8000000000000000", "0xffffffffffffffff",
    "1e308", "1e309", "-1e309", "1.7976931348623157e308", "5e-324", "1e-320",
    "(1/0)", "(-1/0)", "(0/0)", "math.huge", "-math.huge", "math.pi", "3.0", "1E2", "2e0",
    "desired", "obj.spec.size", "#\"abc\"", "12345678901234567890", "0.30000000000000004",
    "1/3", "2/3", "1e100", "123456789012", "4294967296", "-0.25",
]

STRINGS = [
    '""', '"abc"', '"10"', '" 0x10 "', '"1e2"', '"-0"', '"nan"', '"inf"', '"1.5"', '"0x1.8p1"',
    '"  12  "', '"İ"', '"ß"', '"é"', '"\\255"', '"\\200abc"', '"日本"', '"a.b"', '"%d"', '"A-Z"',
    '"x y z"', '"a,b,c"', '"Hello World"', '"0x"', '"1e"', '"12abc"', '"-12"', '"+5"', '"0b101"',
    '"1e400"', '"9007199254740993"', '"0x8000000000000000"', '"\\0"', '"a\\0b"', '"\\t\\n"',
    '"ǅ"', '"ﬀ"', '"Σ"', '"\\226\\130"', '"\\xff"', '"ABCdef"', '"[x]"', '"%"', '"f"', '"foo"',
    '"  "', '"1 2"', '"0.5"', '".5"', '"5."', '"1e+2"', '"0x1p4"', '"0x.8"', '"١٢"', '"\\192\\128"',
    '"\\237\\160\\128"', '"\\244\\144\\128\\128"', '"k=v;k2=v2"', '"web-1.2.3"',
]

PATTERNS = [
    '""', '"a"', '"%d"', '"%d+"', '"%a+"', '"%w*"', '"%s"', '"%S+"', '"^a"', '"c$"', '"^$"',
    '"."', '".-"', '"(.)"', '"(%d+)%.(%d+)"', '"[a-c]+"', '"[^a-c]"', '"[%a_]"', '"%f"', '"%f[%a]"',
    '"%b()"', '"%x+"', '"%u"', '"%l+"', '"%p"', '"%c"', '"%z"', '"()"', '"(a)(b)"', '"a*"',
    '"a?b"', '"[%]]"', '"%.%d"', '"[]"', '"%"', '"(()"', '"%1"', '"(a)%1"', '"[a-]"', '"-"',
    '"ß"', '"[\\128-\\255]+"', '"%A"', '"^(%w+)=(%w+)$"', '"[0-9]+"', '"%-"', '"%%"', '"%g"',
]

FORMATS = [
    '"%d"', '"%5d"', '"%-5d|"', '"%05d"', '"%x"', '"%X"', '"%o"', '"%g"', '"%.3g"', '"%e"',
    '"%.2f"', '"%f"', '"%s"', '"%10s|"', '"%-3s|"', '"%.2s"', '"%q"', '"%c"', '"%i"', '"%u"',
    '"%%"', '"%5.1f"', '"%+d"', '"% d"', '"%#x"', '"%G"', '"%E"', '"%s %s"', '"%d %s"', '"%"',
    '"%y"', '"%.0f"', '"%.20g"', '"%a"',
]


class Generator:
    def __init__(self, rng):
        self.rng = rng

    def pick(self, items):
        return self.rng.choice(items)

    def number(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.45:
            return self.pick(NUMBERS)
        if r < 0.7:
            op = self.pick(["+", "-", "*", "/", "%", "^", "%", "/"])
            return f"({self.value(depth - 1)} {op} {self.value(depth - 1)})"
        if r < 0.75:
            return f"(-{self.value(depth - 1)})"
        if r < 0.8:
            return f"#{self.string(depth - 1)}"
        name = self.pick(["floor", "ceil", "fmod", "modf", "max", "min", "abs", "sqrt", "fmod"])
        if name in ("fmod", "max", "min"):
            return f"math.{name}({self.number(depth - 1)}, {self.value(depth - 1)})"
        return f"math.{name}({self.value(depth - 1)})"

    def string(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            return self.pick(STRINGS)
        if r < 0.5:
            return f"({self.value(depth - 1)} .. {self.value(depth - 1)})"
        if r < 0.6:
            return f"tostring({self.value(depth - 1)})"
        if r < 0.7:
            args = ", ".join(self.value(depth - 1) for _ in range(self.rng.randint(0, 2)))
            return f"string.format({self.pick(FORMATS)}{', ' if args else ''}{args})"
        name = self.pick(["sub", "sub", "upper", "lower", "len", "reverse", "byte", "char", "match"])
        s = self.string(depth - 1)
        if name == "sub":
            extra = ", ".join(self.pick(NUMBERS[:12] + ["-1", "-2", "0", "100"]) for _ in range(self.rng.randint(1, 2)))
            return f"string.sub({s}, {extra})"
        if name == "byte":
            return f"string.byte({s}, {self.pick(['1', '-1', '2', '0', '1.5'])})"
        if name == "char":
            codes = ", ".join(self.pick(["65", "97", "0", "255", "200", "48", "256", "-1", "65.5"])
                              for _ in range(self.rng.randint(0, 3)))
            return f"string.char({codes})"
        if name == "match":
            return f"string.match({s}, {self.pick(PATTERNS)})"
        return f"string.{name}({s})"

    def value(self, depth):
        r = self.rng.random()
        if r < 0.45:
            return self.number(depth)
        if r < 0.85:
            return self.string(depth)
        if r < 0.9:
            return self.call(depth)
        return self.pick(["true", "false", "nil"])

    def call(self, depth):
        r = self.rng.random()
        if r < 0.25:
            base = self.pick(["", "", ", 10", ", 16", ", 2", ", 36", ", 8"])
            return f"tonumber({self.value(depth - 1)}{base})"
        if r < 0.55:
            s = self.string(depth - 1)
            fn = self.pick(["find", "find", "match", "match"])
            extra = ""
            if self.rng.random() < 0.3:
                extra = f", {self.pick(['1', '2', '-1', '0', '10', '-10'])}"
                if fn == "find" and self.rng.random() < 0.4:
                    extra += ", true"
            return f"string.{fn}({s}, {self.pick(PATTERNS)}{extra})"
        if r < 0.7:
            items = ", ".join(self.value(depth - 1) for _ in range(self.rng.randint(0, 3)))
            sep = self.pick(["", ", \",\"", ", 1", ", \"\""])
            return f"table.concat({{{items}}}{sep})"
        if r < 0.8:
            return f"select('#', {self.value(depth - 1)})"
        if r < 0.9:
            op = self.pick(["<", "<=", "==", "~=", ">"])
            return f"({self.value(depth - 1)} {op} {self.value(depth - 1)})"
        return f"type({self.value(depth - 1)})"

    def statement(self, index):
        """One statement storing a value in obj.spec."""
        field = f"obj.spec.v{index}"
        r = self.rng.random()
        expr = self.value(3)
        if r < 0.4:
            return f"{field} = tostring({expr})"
        if r < 0.55:
            return f"{field} = {expr}"
        if r < 0.65:
            return f"{field} = {{{expr}, {self.value(2)}}}"
        if r < 0.75:
            return (f"local ok{index}, e{index} = pcall(function() return {expr} end)\n"
                    f"  {field} = {{ok = ok{index}, t = type(e{index})}}")
        if r < 0.82:
            # gmatch collected into a list
            return (f"local l{index} = {{}}\n"
                    f"  for a in string.gmatch({self.string(2)}, {self.pick(PATTERNS)}) do "
                    f"l{index}[#l{index} + 1] = tostring(a) if #l{index} > 20 then break end end\n"
                    f"  {field} = l{index}")
        if r < 0.88:
            body = self.pick([
                f"local t = {{{self.value(1)}, {self.value(1)}, {self.value(1)}}} table.sort(t) {field} = t",
                f"local t = {{{self.value(1)}, {self.value(1)}}} table.insert(t, {self.value(1)}) {field} = t",
                f"local t = {{{self.value(1)}, {self.value(1)}}} {field} = {{table.remove(t), #t}}",
                f"local t = {{{self.value(1)}}} table.insert(t, 1, {self.value(1)}) {field} = {{#t, table.concat(t, '|')}}",
                f"local a, b = math.modf({self.number(2)}) {field} = {{tostring(a), tostring(b)}}",
                f"local a, b = string.find({self.string(2)}, {self.pick(PATTERNS)}) {field} = {{tostring(a), tostring(b)}}",
            ])
            return body
        if r < 0.94:
            return f"if {self.value(2)} then {field} = 1 else {field} = 2 end"
        # error() with level 0: the message is the value itself (Lua's and gopher-lua's
        # wording of other errors differ, and is not compared).
        return (f"local x{index} = {self.value(2)}\n"
                f"  local ok{index}, e{index} = pcall(error, x{index}, 0)\n"
                f"  {field} = {{ok{index}, tostring(e{index})}}")

    def script(self):
        count = self.rng.randint(1, 3)
        body = "\n  ".join(self.statement(i) for i in range(count))
        return f"function ReviseReplica(obj, desired)\n  {body}\n  return obj\nend"


def run(command, scripts):
    done = subprocess.run(command, input=json.dumps(scripts), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {done.stderr[-2000:]}")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(scripts):
        raise SystemExit(f"{command[0]}: {len(scripts)} scripts, {len(answers)} answers")
    return answers


INT64 = range(-2**63, 2**63)


def settle(value):
    """The value as Karmada's object holds it: apimachinery reads a JSON integer outside int64
    as a float64 (how each side writes that float is the YAML writer's business, not Lua's);
    a message's chunk name is the script's name (`<string>` in Karmada, the file in fedrender)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if value in INT64 else float(value)
    if isinstance(value, str):
        return re.sub(r"<string>:(\d+):", r"script:\1:", value)
    if isinstance(value, list):
        return [settle(item) for item in value]
    if isinstance(value, dict):
        return {key: settle(item) for key, item in value.items()}
    return value


def canonical(answer):
    """What is compared: failure, or the spec with its keys sorted and numbers as written."""
    if not answer.get("ok"):
        return "error"
    return json.dumps(settle(answer.get("spec")), sort_keys=True, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin_dir")
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fedrender", help="the revise_replica example, already built")
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--save")
    args = parser.parse_args()
    fedrender = args.fedrender
    if not fedrender:
        subprocess.run(["cargo", "build", "--release", "-p", "fedrender-engine", "--example",
                        "revise_replica"], cwd=ROOT, check=True)
        fedrender = os.path.join(ROOT, "target", "release", "examples", "revise_replica")
    rng = random.Random(args.seed)
    generator = Generator(rng)
    scripts = [generator.script() for _ in range(args.count)]
    gopher = run([os.path.join(args.bin_dir, "gopher-lua")], scripts)
    ours = run([fedrender], scripts)
    differing = []
    for script, theirs, mine in zip(scripts, gopher, ours):
        if canonical(theirs) != canonical(mine):
            differing.append({"script": script, "gopher_lua": theirs, "fedrender": mine})
    for case in differing[:args.show]:
        print(case["script"])
        print("  gopher-lua:", json.dumps(case["gopher_lua"], ensure_ascii=False))
        print("  fedrender: ", json.dumps(case["fedrender"], ensure_ascii=False))
        print()
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            for case in differing:
                f.write(json.dumps(case, ensure_ascii=False) + "\n")
    errors = sum(1 for answer in gopher if not answer.get("ok"))
    print(f"{len(scripts)} scripts (seed {args.seed}; {errors} fail in gopher-lua), "
          f"{len(differing)} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
