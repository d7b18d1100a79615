#!/usr/bin/env python3
"""Regenerates what the Go references answered, from the inputs recorded beside it.

usage: python3 testdata/references/regenerate.py BIN_DIR [--only NAME ...] [--check]

BIN_DIR holds the references as the project's shared oracle sources build them, offline from
Karmada's vendored libraries (README.md here says how):

  go-yaml           sigs.k8s.io/yaml YAMLToJSON (go-yaml v2), what kubectl sends to the API server;
                    with -stream, a whole file read as kubectl reads one
  gopher-lua        a ReviseReplica script run through Karmada's luavm (gopher-lua and its sandbox)
  fedrender-oracle  Karmada's own code run on a fleet and an inventory (only for --only oracle)

NAME is one of gopher-lua, go-yaml, oracle (default: gopher-lua and go-yaml, and oracle when
BIN_DIR has fedrender-oracle). Every file keeps its inputs; only the outputs, and the provenance
line (Karmada commit, Go version, program), are rewritten. go-yaml/written-strings.jsonl holds
text fedrender's writer produced, so its inputs are refreshed first by running that unit test in
its writing mode (`cargo test`); everything else needs no Rust.

--check rewrites nothing: it exits 1 and names each file whose recorded outputs differ from what
the references answer now.

This is not part of `cargo test`, which reads the recorded files and needs no Go.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ORACLE_CASES = os.path.join(ROOT, "testdata", "oracle")
REGENERATE = "python3 testdata/references/regenerate.py BIN_DIR"

# The unit test that writes the documents of go-yaml/written-strings.jsonl, and the variable
# that makes it write them to a file instead of checking them.
WRITER_TEST = "yaml::tests::strings_are_written_so_go_reads_them_back"
WRITER_VARIABLE = "FEDRENDER_WRITE_YAML_DOCUMENTS"


# ---------------------------------------------------------------------------------------------
# The binaries and where they came from


def go_build_info(binary):
    """(Go version, GOOS/GOARCH) from the build information Go embeds in every binary
    (runtime/debug.BuildInfo: the `\\xff Go buildinf:` header, then two length-prefixed strings)."""
    with open(binary, "rb") as f:
        data = f.read()
    at = data.find(b"\xff Go buildinf:")
    if at < 0 or not data[at + 15] & 2:
        raise SystemExit(f"{binary}: no inline Go build information (built by Go < 1.18?)")
    at += 32
    strings = []
    for _ in range(2):
        length, shift = 0, 0
        while True:
            byte = data[at]
            at += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        strings.append(data[at:at + length].decode("utf-8", "replace"))
        at += length
    version, modules = strings
    settings = dict(re.findall(r"^build\t(GOOS|GOARCH)=(\S+)$", modules, re.M))
    return version, f"{settings.get('GOOS', '?')}/{settings.get('GOARCH', '?')}"


def karmada_commit(binary):
    """The Karmada commit the binary was built from: build.sh extracts it into karmada-<commit>/,
    and the compiler records the source paths."""
    with open(binary, "rb") as f:
        found = set(re.findall(rb"/karmada-([0-9a-f]{7,40})/", f.read()))
    if len(found) != 1:
        raise SystemExit(f"{binary}: cannot tell which Karmada commit it was built from ({found})")
    return found.pop().decode()


# Which script of the project's shared oracle sources builds each binary.
BUILT_BY = {
    "go-yaml": "references/build.sh (references/go-yaml.go) of fedrender's shared oracle sources",
    "gopher-lua": "references/build.sh (references/gopher-lua.go) of fedrender's shared oracle sources",
    "fedrender-oracle": "karmada/build.sh (karmada/main.go and its shims) of fedrender's shared oracle sources",
}


def provenance(binary, program, how):
    version, platform = go_build_info(binary)
    return {
        "program": program,
        "built_by": BUILT_BY[os.path.basename(binary)],
        "karmada": karmada_commit(binary),
        "go": f"{version} {platform}",
        "how": how,
        "regenerate": REGENERATE,
    }


def run(binary, args, inputs):
    """Feeds a JSON array of texts to a reference; one JSON answer per line back."""
    done = subprocess.run([binary, *args], input=json.dumps(inputs), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{binary} {' '.join(args)} failed: {done.stderr}")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(inputs):
        raise SystemExit(f"{binary}: {len(inputs)} inputs, {len(answers)} answers")
    return answers


# ---------------------------------------------------------------------------------------------
# The files: a provenance line, then one case per line


def load(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    if not lines or "provenance" not in lines[0]:
        raise SystemExit(f"{path}: the first line must be {{\"provenance\": ...}}")
    return lines[0]["provenance"], lines[1:]


def dump(provenance_line, cases):
    lines = [json.dumps({"provenance": provenance_line}, ensure_ascii=False)]
    lines += [json.dumps(case, ensure_ascii=False) for case in cases]
    return "\n".join(lines) + "\n"


class Output:
    """Writes regenerated files, or with --check only compares them."""

    def __init__(self, check):
        self.check = check
        self.differing = []

    def write(self, path, text, compare=None):
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        same = old is not None and (compare or (lambda a, b: a == b))(old, text)
        relative = os.path.relpath(path, ROOT)
        if self.check:
            if not same:
                self.differing.append(relative)
            print(f"{'same' if same else 'DIFFERS'}: {relative}")
            return
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        if old == text:
            print(f"unchanged: {relative}")
        else:
            print(f"{'provenance rewritten' if same else 'rewritten'}: {relative}")


def same_outputs(old, new):
    """Two files agree when every line but the provenance (which names the Go version) is equal."""
    return old.splitlines()[1:] == new.splitlines()[1:]


# ---------------------------------------------------------------------------------------------
# gopher-lua: each case is a Lua expression whose value the script stores in the Widget's spec

LUA_SCRIPT = "function ReviseReplica(obj, desired) obj.spec.v = {expression} return obj end"


def lua_string(data):
    """A Lua string literal for bytes: printable ASCII as itself, every other byte as \\ddd."""
    out = ['"']
    for byte in data:
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03d}")
    out.append('"')
    return "".join(out)


def text_bytes(case):
    """A case's text: `text` (UTF-8) or `hex` (any bytes)."""
    return bytes.fromhex(case["hex"]) if "hex" in case else case["text"].encode("utf-8")


def lua_number(text):
    """A Lua expression with exactly the double `text` spells (as Rust's str::parse reads it)."""
    value = float(text)
    if math.isnan(value):
        return "(0/0)"
    if math.isinf(value):
        return "(1/0)" if value > 0 else "(-1/0)"
    if math.copysign(1.0, value) < 0:
        return f"(-{repr(-value)})"
    return repr(value)


def lua_argument(arg):
    if arg is None:
        return "nil"
    if isinstance(arg, bool):
        return "true" if arg else "false"
    if "number" in arg:
        return lua_number(arg["number"])
    return lua_string(text_bytes(arg))


def lua_format(pattern, args):
    return "string.format(" + ", ".join([lua_string(pattern.encode())] + [lua_argument(a) for a in args]) + ")"


def go_verb(case):
    precision = case.get("precision")
    return "%" + ("" if precision is None else f".{precision}") + case["verb"]


# file -> (what the case's expression is, how to build it from the case's inputs)
GOPHER_LUA = {
    "string-format.jsonl": (
        "string.format(format, args...): Go's fmt.Sprintf as gopher-lua calls it",
        lambda case: lua_format(case["format"], case["args"]),
    ),
    "go-float.jsonl": (
        "string.format(\"%[.precision]verb\", number): gopher-lua hands the double to Go's fmt "
        "(strconv.FormatFloat)",
        lambda case: lua_format(go_verb(case), [{"number": case["number"]}]),
    ),
    "number-to-string.jsonl": (
        "tostring(number): gopher-lua's LNumber.String",
        lambda case: f"tostring({lua_number(case['number'])})",
    ),
    "tonumber.jsonl": (
        "tostring(tonumber(text[, base])): gopher-lua's tonumber, printed",
        lambda case: "tostring(tonumber(" + lua_string(text_bytes(case))
        + ("" if case.get("base") is None else f", {case['base']}") + "))",
    ),
    "case-mapping.jsonl": (
        "string.upper(text) / string.lower(text): Go's strings.ToUpper / ToLower as gopher-lua calls them",
        lambda case: f"string.{case['function']}({lua_string(text_bytes(case))})",
    ),
    "scripts.jsonl": (
        "expression, as written in a script: gopher-lua's compiler, virtual machine and libraries "
        "(each case's `why` says what it pins down)",
        lambda case: case["expression"],
    ),
    "tostring.jsonl": (
        "tostring(expression), the expression as written in a script",
        lambda case: f"tostring({case['expression']})",
    ),
}


def regenerate_gopher_lua(bin_dir, output):
    binary = os.path.join(bin_dir, "gopher-lua")
    for name, (what, expression) in GOPHER_LUA.items():
        path = os.path.join(HERE, "gopher-lua", name)
        _, cases = load(path)
        scripts = []
        for case in cases:
            case["lua"] = expression(case)
            scripts.append(LUA_SCRIPT.format(expression=case["lua"]))
        for case, answer in zip(cases, run(binary, [], scripts)):
            case.pop("gopher_lua", None)
            case.pop("gopher_lua_error", None)
            case.pop("gopher_lua_nil", None)
            if answer.get("ok"):
                case["gopher_lua"] = answer["spec"].get("v")
                if "v" not in answer["spec"]:
                    case["gopher_lua_nil"] = True
            else:
                case["gopher_lua_error"] = answer.get("err")
        how = (f"{what}. Each case's `lua` is evaluated as `{LUA_SCRIPT}` on a Widget whose spec is "
               "{size: 1}; `gopher_lua` is spec.v of the object the script returns (or "
               "`gopher_lua_error`, the error)")
        header = provenance(binary, "gopher-lua (Karmada's luavm.ReviseReplica: gopher-lua with "
                                    "Karmada's sandbox)", how)
        output.write(path, dump(header, cases), same_outputs)


# ---------------------------------------------------------------------------------------------
# go-yaml: each case is a YAML text and what sigs.k8s.io/yaml made of it


def go_yaml_answers(binary, cases):
    """Fills `go` (the JSON, numbers as Go wrote them) or `go_error` for each case, running the
    cases with `stream: true` as whole files (`-stream`)."""
    for stream in (False, True):
        chosen = [case for case in cases if bool(case.get("stream")) == stream]
        if not chosen:
            continue
        answers = run(binary, ["-stream"] if stream else [], [case["yaml"] for case in chosen])
        for case, answer in zip(chosen, answers):
            case.pop("go", None)
            case.pop("go_error", None)
            if answer.get("ok"):
                case["go"] = answer["json"]
            else:
                case["go_error"] = answer.get("err")


def writer_documents():
    """What fedrender's writer makes of each string, from the unit test in its writing mode."""
    with tempfile.TemporaryDirectory(prefix="fedrender-references-") as scratch:
        path = os.path.join(scratch, "documents.json")
        done = subprocess.run(
            ["cargo", "test", "--locked", "-p", "fedrender-engine", "--lib", "--", WRITER_TEST, "--exact"],
            cwd=ROOT, env={**os.environ, WRITER_VARIABLE: path}, check=False)
        if done.returncode != 0 or not os.path.exists(path):
            raise SystemExit(f"`cargo test -p fedrender-engine --lib -- {WRITER_TEST}` did not write the documents")
        with open(path, encoding="utf-8") as f:
            return json.load(f)


YAML_HOW = ("`yaml` read by sigs.k8s.io/yaml YAMLToJSON (go-yaml v2), or with `stream` as kubectl "
            "reads a file (apimachinery's YAMLOrJSONDecoder, a list of documents); `go` is the JSON "
            "with its numbers as Go wrote them, or `go_error` the error")


def regenerate_go_yaml(bin_dir, output, with_writer):
    binary = os.path.join(bin_dir, "go-yaml")
    header = provenance(binary, "go-yaml (sigs.k8s.io/yaml YAMLToJSON; -stream: apimachinery's "
                                "YAMLOrJSONDecoder)", YAML_HOW)
    path = os.path.join(HERE, "go-yaml", "reading.jsonl")
    _, cases = load(path)
    go_yaml_answers(binary, cases)
    output.write(path, dump(header, cases), same_outputs)

    path = os.path.join(HERE, "go-yaml", "written-strings.jsonl")
    _, cases = load(path)
    if with_writer:
        cases = [{"string": doc["string"], "yaml": doc["yaml"]} for doc in writer_documents()]
    go_yaml_answers(binary, cases)
    written = dict(header, how=YAML_HOW + "; each `yaml` is what fedrender's writer (yaml::to_yaml) "
                   "wrote for {string: string, list: [string]}, taken from the unit test "
                   f"{WRITER_TEST} run with {WRITER_VARIABLE}=FILE")
    output.write(path, dump(written, cases), same_outputs)


# ---------------------------------------------------------------------------------------------
# The oracle: each case under testdata/oracle/ is a fleet and what Karmada rendered of it


def regenerate_oracle(bin_dir, output):
    binary = os.path.join(bin_dir, "fedrender-oracle")
    version, platform = go_build_info(binary)
    for name in sorted(os.listdir(ORACLE_CASES)):
        case = os.path.join(ORACLE_CASES, name)
        if not os.path.isdir(os.path.join(case, "input")):
            continue
        done = subprocess.run([binary, "input", "--clusters", "clusters.yaml"], cwd=case,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{binary} on {name} failed: {done.stderr}")
        rendered = json.dumps(json.loads(done.stdout), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        output.write(os.path.join(case, "karmada.json"), rendered)
        with open(os.path.join(case, "PROVENANCE"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        # The case's own lines (where the fleet came from) stay; the recorded run's are rewritten.
        kept = [line for line in lines if not line.startswith(("karmada.json:", "karmada:", "go:"))]
        kept += [
            "karmada.json: `fedrender-oracle input --clusters clusters.yaml`, its whole output; "
            "built by " + BUILT_BY["fedrender-oracle"],
            f"karmada: {karmada_commit(binary)}",
            f"go: {version} {platform}",
        ]
        output.write(os.path.join(case, "PROVENANCE"), "\n".join(kept) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin_dir", help="the directory holding go-yaml, gopher-lua (and fedrender-oracle)")
    parser.add_argument("--only", action="append", choices=["gopher-lua", "go-yaml", "oracle"])
    parser.add_argument("--check", action="store_true", help="compare, rewrite nothing")
    args = parser.parse_args()
    chosen = args.only or ["gopher-lua", "go-yaml"] + (
        ["oracle"] if os.path.exists(os.path.join(args.bin_dir, "fedrender-oracle")) else [])
    output = Output(args.check)
    if "gopher-lua" in chosen:
        regenerate_gopher_lua(args.bin_dir, output)
    if "go-yaml" in chosen:
        regenerate_go_yaml(args.bin_dir, output, with_writer=not args.check)
    if "oracle" in chosen:
        regenerate_oracle(args.bin_dir, output)
    if output.differing:
        print(f"{len(output.differing)} file(s) differ from what the references answer now", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
