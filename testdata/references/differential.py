#!/usr/bin/env python3
"""Differential test of fedrender's YAML reader against Go's (sigs.k8s.io/yaml YAMLToJSON).

Generates random YAML documents biased to YAML 1.1's ambiguities — booleans in every case,
numbers with underscores, radix prefixes, exponents and signs, merge keys, anchors, tags,
quoting styles, flow collections, block scalars, odd line breaks, keys that convert alike,
deep nesting — and has both readers read each one: the Go reference `go-yaml` (built by the
shared oracle's references/build.sh) and fedrender's `go_yaml_reading` example, which reads a
text as fedrender reads a fleet's document. A value on one side and an error on the other is a
difference, and so is a different value; error texts are not compared.

    cargo build --release -p fedrender-engine --example go_yaml_reading
    python3 testdata/references/differential.py BIN_DIR [--count 10000] [--seed 1] [--show 20]

BIN_DIR holds `go-yaml`. Exit status 1 when a difference is not in EXPLAINED (docs/yaml.md
lists them, with the reasons fedrender reads those documents otherwise).
"""

import argparse
import json
import math
import re
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BOOLEAN_WORDS = ["y", "n", "yes", "no", "on", "off", "true", "false"]
NULL_WORDS = ["~", "null", "", "nil", "none"]
SPECIAL_FLOATS = [".inf", ".nan", "+.inf", "-.inf", "inf", "nan", "infinity"]


def cases(word, rng):
    """A word in one of its spellings: lower, Title, UPPER, or a random mix."""
    pick = rng.randrange(5)
    if pick == 0:
        return word
    if pick == 1:
        return word[:1].upper() + word[1:]
    if pick == 2:
        return word.upper()
    return "".join(c.upper() if rng.randrange(2) else c for c in word)


def number(rng):
    sign = rng.choice(["", "", "", "-", "+"])
    kind = rng.randrange(13)
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))
    if kind == 0:
        body = digits(rng.randint(1, 4))
    elif kind == 1:
        body = "0" + digits(rng.randint(1, 3))  # legacy octal, maybe with an 8 or 9
    elif kind == 2:
        body = rng.choice(["0x", "0X"]) + "".join(rng.choice("0123456789abcdefABCDEFg") for _ in range(rng.randint(0, 4)))
    elif kind == 3:
        body = rng.choice(["0o", "0O"]) + digits(rng.randint(0, 3))
    elif kind == 4:
        body = rng.choice(["0b", "0B"]) + "".join(rng.choice("012") for _ in range(rng.randint(0, 5)))
    elif kind == 5:
        body = digits(rng.randint(0, 3)) + "." + digits(rng.randint(0, 3))
    elif kind == 6:
        body = digits(rng.randint(1, 2)) + rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + digits(rng.randint(0, 3))
    elif kind == 7:
        body = rng.choice(["1e309", "1e-400", "9223372036854775807", "9223372036854775808",
                           "18446744073709551615", "18446744073709551616", "99999999999999999999",
                           "1e21", "1e20", "123456789012345678", "0.1", "1e-7", "3.14159265358979"])
    elif kind == 8:
        body = rng.choice(SPECIAL_FLOATS)
        body = body[:1] + cases(body[1:], rng) if body.startswith((".", "+", "-")) else cases(body, rng)
    elif kind == 9:
        body = rng.choice(["12:30", "1:20:30", "2024-01-01", "2024-1-2", "2001-12-14t21:59:43.10-05:00",
                           "2001-12-14 21:59:43.10", "2024-02-30", "1.2.3", "1,000", "0.", ".5", "."])
    elif kind == 10:
        # What rendered charts write led by a digit: digests, schedules, timestamps, versions.
        body = rng.choice([
            digits(1) + "".join(rng.choice("0123456789abcdef") for _ in range(rng.randint(1, 12))),
            " ".join(rng.choice([digits(rng.randint(1, 2)), "*", "*/5", "1-5"]) for _ in range(5)),
            f"20{digits(2)}-{digits(2)}-{digits(2)}T{digits(2)}:{digits(2)}:{digits(2)}" + rng.choice(["Z", "+01:00", ".5Z", ""]),
            f"{digits(1)}.{digits(2)}.{digits(1)}" + rng.choice(["", "-r3", "+build.1", "-debian-12"]),
            digits(rng.randint(1, 3)) + rng.choice(["e", "E", "x", "o", "b"]) + digits(rng.randint(0, 2)) + rng.choice(["", "a", "f", "p1"]),
        ])
    else:
        body = digits(rng.randint(1, 3))
    # Underscores anywhere.
    if rng.randrange(3) == 0 and body:
        at = rng.randrange(len(body) + 1)
        body = body[:at] + "_" * rng.randint(1, 2) + body[at:]
    return sign + body


def plain_word(rng):
    return rng.choice(["a", "web", "x", "Y", "name", "v1", "grid", "é", "a b", "a:b", "a#b", "-a",
                       "/p", "a.b", "<<", "?", "-", "a,b", "25%", "1Gi", "k8s", "a'b", 'a"b'])


def scalar_text(rng):
    kind = rng.randrange(10)
    if kind < 3:
        return cases(rng.choice(BOOLEAN_WORDS), rng)
    if kind == 3:
        return cases(rng.choice(NULL_WORDS), rng)
    if kind < 7:
        return number(rng)
    return plain_word(rng)


def quoted(text, rng):
    style = rng.randrange(6)
    if style == 0:
        return "'" + text.replace("'", "''") + "'"
    if style == 1:
        return json.dumps(text, ensure_ascii=rng.randrange(2) == 0)
    if style == 2:
        tag = rng.choice(["!!str", "!!int", "!!float", "!!bool", "!!null", "!custom", "!", "!!timestamp",
                          "!!binary", "!!merge", "!<tag:yaml.org,2002:str>", "!!map"])
        return f"{tag} {text}" if text else tag
    return text


def scalar(rng, flow=False):
    text = scalar_text(rng)
    written = quoted(text, rng)
    if flow and not written.startswith(("'", '"')) and any(c in written for c in ",[]{}#"):
        written = json.dumps(text)
    if written.startswith(("'", '"', "!")):
        return written
    if written in ("?", "-") or written.startswith(("#", "&", "*", "|", ">", "%", "@", "`", ",", "[", "{")):
        return json.dumps(written)
    return written


def key(rng, flow=False):
    kind = rng.randrange(8)
    if kind < 3:
        return cases(rng.choice(BOOLEAN_WORDS + ["x", "k"]), rng)
    if kind == 3:
        return number(rng)
    if kind == 4:
        return rng.choice(["<<", "'<<'", "~", "null", '"on"', "'y'", "!!str on", "? x"]) if not flow else rng.choice(["'<<'", '"on"', "'y'"])
    return scalar(rng, flow)


class Doc:
    def __init__(self, rng):
        self.rng = rng
        self.anchors = []

    def properties(self):
        rng = self.rng
        if rng.randrange(8) == 0:
            name = "a%d" % len(self.anchors)
            self.anchors.append(name)
            return "&" + name + " "
        return ""

    def alias(self):
        return "*" + self.rng.choice(self.anchors)

    def flow(self, depth):
        rng = self.rng
        if rng.randrange(2) == 0:
            items = [self.flow_node(depth) for _ in range(rng.randrange(4))]
            if items and rng.randrange(10) == 0:
                items.append("")  # a trailing comma
            return "[" + ", ".join(items) + "]"
        entries = []
        for _ in range(rng.randrange(4)):
            k = key(self.rng, flow=True)
            entries.append(f"{k}: {self.flow_node(depth)}" if rng.randrange(8) else f"{k}:")
        return "{" + ", ".join(entries) + "}"

    def flow_node(self, depth):
        rng = self.rng
        if self.anchors and rng.randrange(10) == 0:
            return self.alias()
        if depth > 0 and rng.randrange(4) == 0:
            return self.properties() + self.flow(depth - 1)
        return self.properties() + scalar(rng, flow=True)

    def block_scalar(self, indent):
        rng = self.rng
        header = rng.choice(["|", ">", "|-", ">+", "|2", ">-"])
        lines = []
        for _ in range(rng.randint(1, 3)):
            lines.append(" " * indent + rng.choice(["text", "  more", "", "yes", "a: b", "# not a comment", "\tTab"]))
        return header + "\n" + "\n".join(lines)

    def value(self, indent, depth):
        """The text after `key:` or `- `, starting with a space or a line break."""
        rng = self.rng
        kind = rng.randrange(10)
        if self.anchors and kind == 0:
            return " " + self.alias()
        if depth > 0 and kind < 4:
            props = self.properties()
            return (" " + props.strip() if props else "") + "\n" + self.block(indent + rng.choice([2, 2, 4]), depth - 1)
        if kind == 4:
            return " " + self.properties() + self.flow(min(depth, 2))
        if kind == 5:
            return " " + self.block_scalar(indent + 2)
        if kind == 6 and rng.randrange(3) == 0:
            return ""
        return " " + self.properties() + scalar(rng)

    def block(self, indent, depth):
        rng = self.rng
        pad = " " * indent
        lines = []
        if rng.randrange(3) == 0:
            for _ in range(rng.randint(1, 3)):
                lines.append(pad + "-" + self.value(indent + 2, depth))
        else:
            for _ in range(rng.randint(1, 4)):
                if self.anchors and rng.randrange(8) == 0:
                    merged = self.alias() if rng.randrange(3) else "[" + ", ".join(rng.choice(self.anchors) and "*" + rng.choice(self.anchors) for _ in range(2)) + "]"
                    lines.append(pad + "<<: " + merged)
                    continue
                lines.append(pad + key(rng) + ":" + self.value(indent, depth))
        return "\n".join(lines)


LINE_BREAKS = ["\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"]


def document(rng):
    doc = Doc(rng)
    text = doc.block(0, rng.randint(0, 4)) + "\n"
    if rng.randrange(20) == 0:
        # Odd line breaks, in place of one of the document's.
        at = [i for i, c in enumerate(text) if c == "\n"]
        i = rng.choice(at)
        text = text[:i] + rng.choice(LINE_BREAKS) + text[i + 1:]
    if rng.randrange(30) == 0:
        depth = rng.randint(20, 60)
        text = "a: " + "[" * depth + "x" + "]" * depth + "\n"
    if rng.randrange(25) == 0:
        text = "a: " + scalar(rng) + "\nb: " + number(rng) + "\n"
    return text


def run(command, texts):
    out = subprocess.run(command, input=json.dumps(texts), capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.split("\n") if line]


def same_json(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return float(a) == float(b) or (math.isnan(float(a)) and math.isnan(float(b)))
    return a == b


def classify(text, go, ours):
    """Which difference docs/yaml.md lists this is, or None. The tests are rough: a listed
    difference's mark in the text, so a document they take may hide another difference; run
    with --strict to see every difference."""
    if go["ok"] and not ours["ok"] and "duplicate mapping key" in ours["err"]:
        return "repeated key refused (kubectl reads strictly)"
    if any(c in text for c in "\u0085\u2028\u2029") and any(c in text for c in "|>"):
        return "NEL/LS/PS inside a block scalar"
    if re.search(r"![^\s\[\]{}]*[,:\]}]", text):
        return "a tag glued to flow punctuation"
    if re.search(r"[\[{,] *(\S+ )?-[,\]}]|[{,] *:[,}]", text):
        return "a flow entry that is `-` or an empty key"
    if re.search(r"\[[^\]]*[^\s\[{,]:[,\]]|, [^\s\[{,]+:[,\]]", text):
        return "`[a:, b]` in a flow sequence"
    if "!!binary" in text:
        return "!!binary of bytes that are not UTF-8"
    if go["ok"] and not ours["ok"] and re.search(r"null map key|above the largest|JSON can hold", ours["err"]):
        return "a problem in a value a repeated key replaces (Go never converts it)"
    return None


def written_values(rng, count):
    """Values whose strings are spelled like everything the reader was tried on."""
    values = []
    for _ in range(count):
        text = scalar_text(rng)
        if rng.randrange(4) == 0:
            text = text + rng.choice(["\n", "\n\tx\n", "\u2028", "\u0085x", " ", "\ty"])
        values.append({text: text, "list": [text]})
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=20)
    parser.add_argument("--strict", action="store_true", help="count listed differences too")
    parser.add_argument("--ours", default=str(ROOT / "target/release/examples/go_yaml_reading"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = [document(rng) for _ in range(args.count)]
    go = run([str(Path(args.bin_dir) / "go-yaml")], texts)
    ours = run([args.ours], texts)
    differences, explained = [], {}
    for text, g, o in zip(texts, go, ours):
        if g["ok"] != o["ok"] or (g["ok"] and not same_json(g["json"], o["json"])):
            reason = None if args.strict else classify(text, g, o)
            if reason:
                explained[reason] = explained.get(reason, 0) + 1
            else:
                differences.append((text, g, o))
    # The writer: each value written by fedrender must read back in Go as the value.
    values = written_values(rng, args.count)
    written = [json.loads(line) for line in subprocess.run([args.ours, "--write"], input=json.dumps(values), capture_output=True, text=True, check=True).stdout.split("\n") if line]
    misread = [(v, w, g) for v, w, g in zip(values, written, run([str(Path(args.bin_dir) / "go-yaml")], written))
               if not g["ok"] or not same_json(g["json"], v)]
    print(f"writer: {len(values)} values written, {len(misread)} read back otherwise by Go")
    for v, w, g in misread[: args.show]:
        print("  ", json.dumps(v), "written", json.dumps(w), "go", json.dumps(g)[:200])
    errors_go = sum(1 for g in go if not g["ok"])
    print(f"{len(texts)} documents (seed {args.seed}), Go refused {errors_go}; "
          f"{len(differences)} differences not listed in docs/yaml.md; listed: {explained}")
    differences.sort(key=lambda d: len(d[0]))
    for text, g, o in differences[: args.show]:
        print(json.dumps(text))
        print("   go:  ", json.dumps(g, ensure_ascii=False)[:300])
        print("   ours:", json.dumps(o, ensure_ascii=False)[:300])
    sys.exit(1 if differences or misread else 0)


if __name__ == "__main__":
    main()
