#!/usr/bin/env python3
"""Writes the known differences between fedrender and cel-judge into docs/differences.md, each
with the reason, from the replay test's report of what differs:

    cargo test -p fedrender-engine judge_replay 2>&1 | python3 testdata/references/cel-judge/known.py

Reasons come from the judge's recorded errors and fedrender's findings; a difference no rule
here explains is written with reason UNEXPLAINED, for a person to look at (never commit one).
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = HERE.parent.parent.parent / "docs" / "differences.md"
BEGIN, END = "<!-- cel-judge differences: begin -->", "<!-- cel-judge differences: end -->"


def reason(case, version, kind, findings):
    judged = case["judge"][version]
    if kind == "crd-accepted":
        detail = judged["crd_errors"][0]["detail"]
        m = re.search(r"undeclared reference to '([\w.]+)'", detail)
        if m:
            return ("CRD creation: `%s` is not in Kubernetes %s's environment for new rules "
                    "(compatibility version 1.%d); fedrender does not yet gate the CEL libraries "
                    "by version" % (m.group(1), version, int(version.split(".")[1]) - 1))
        if "estimated" in detail and "cost" in detail:
            crd = CRDS[case["crd"]]
            if "format." in json.dumps(crd) and ".validate(" in json.dumps(crd):
                return ("CRD creation: the estimated cost of `format.<name>().validate(s)` is not "
                        "cel-go's: apiserver pkg/cel/library/cost.go charges the string's size times "
                        "MaxNameFormatRegexSize, fedrender's estimate (cel/estimate.rs) has no case for "
                        "`validate`")
            return "CRD creation: the estimated cost limits are not computed yet"
        if "no matching overload" in detail or "found no matching" in detail:
            return "CRD creation: rules are not type-checked yet (%s)" % detail.split("\n")[0][-80:]
        if "oldSelf" in detail:
            return "CRD creation: where `oldSelf` may be used is not checked yet"
        return "CRD creation is not yet checked as the API server checks it: " + detail.split("\n")[0][:120]
    if kind == "object-accepted" and "-pdecode-" in case["id"] and "too long" in json.dumps(judged["errors"]):
        return ("OpenAPI: a negative maxLength refuses every string (kube-openapi compares the "
                "length with it); fedrender reads a negative bound as none")
    if kind == "object-refused" and "cannot be evaluated: undeclared reference" in findings:
        return "CEL: two-variable comprehensions are not evaluated yet"
    if kind == "object-refused" and "undeclared function" in findings:
        fn = re.search(r"undeclared function '([\w.]+)'", findings).group(1)
        return "CEL: `%s` is not evaluated yet" % fn
    if kind == "object-refused" and "failed rule" in findings and "has(self." in findings \
            and re.search(r'"\w+": null', json.dumps(case["object"].get("spec"))):
        return ("CEL: a nullable field set to null is absent to the API server's `has()` "
                "(apiserver pkg/cel/common/valuesunstructured.go unstructuredMap.Find treats a null "
                "property of an object as absent), present to fedrender's")
    return "UNEXPLAINED"


CRDS = {}


def main():
    for path in sorted(HERE.glob("crds*.jsonl")):
        for line in open(path):
            entry = json.loads(line)
            CRDS[entry["id"]] = entry["crd"]
    cases = {}
    for path in sorted(HERE.glob("cases*.jsonl")):
        for line in open(path):
            case = json.loads(line)
            cases[case["id"]] = case
    lines = []
    for line in sys.stdin:
        m = re.match(r"- `([^`@]+)@([\d.]+)` ([\w-]+): ?(.*)", line.strip())
        if not m:
            continue
        case_id, version, kind, findings = m.groups()
        lines.append("- `%s@%s` %s: %s" % (case_id, version, kind,
                                            reason(cases[case_id], version, kind, findings)))
    text = DOC.read_text()
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + "\n".join(lines) + "\n" + text[stop:])
    print("%d differences written, %d unexplained" % (len(lines), sum("UNEXPLAINED" in l for l in lines)))


if __name__ == "__main__":
    main()
