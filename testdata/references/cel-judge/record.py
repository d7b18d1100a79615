#!/usr/bin/env python3
"""Runs cel-judge on generate.py's cases at each Kubernetes version and records what it says.

    python3 generate.py --seed 47 --crds 300 > /tmp/cases.json
    python3 record.py /tmp/cases.json /tmp/cel-judge-build/bin/cel-judge [SUFFIX]

writes crds.jsonl (each CRD once, by id) and cases.jsonl (each case's object, old object and,
per version, the judge's verdict: the CRD's errors, the object's errors before CEL and CEL's,
whether CEL was blocked, why it was skipped) — crds-SUFFIX.jsonl and cases-SUFFIX.jsonl with a
SUFFIX (`48`), beside the others.
"""

import json
import subprocess
import sys

VERSIONS = ["1.30", "1.33", "1.36"]


def errors(list_):
    return [{"type": e["type"], "field": e["field"], "detail": e["detail"][:300]} for e in list_]


def main():
    cases_path, judge = sys.argv[1], sys.argv[2]
    suffix = "-" + sys.argv[3] if len(sys.argv) > 3 else ""
    cases = json.load(open(cases_path))
    inputs = [{k: c[k] for k in ("id", "crd", "object", "old") if k in c} for c in cases]
    verdicts = {c["id"]: {} for c in cases}
    for version in VERSIONS:
        out = subprocess.run([judge, "-k8s", version], input=json.dumps(inputs), capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            r = json.loads(line)
            verdict = {"crd_errors": errors(r["crd_errors"]), "errors": errors(r["errors"]),
                       "cel_errors": errors(r["cel_errors"])}
            if r.get("cel_blocked"):
                verdict["cel_blocked"] = True
            if r.get("skipped"):
                verdict["skipped"] = r["skipped"][:300]
            if r.get("panic"):
                verdict["panic"] = r["panic"][:300]
            verdicts[r["id"]][version] = verdict
    crds = {}
    with open("cases%s.jsonl" % suffix, "w") as out:
        for c in cases:
            crds.setdefault(c["crd_id"], c["crd"])
            line = {"id": c["id"], "crd": c["crd_id"], "object": json.loads(c["object"])}
            if "old" in c:
                line["old"] = json.loads(c["old"])
            line["judge"] = verdicts[c["id"]]
            out.write(json.dumps(line, ensure_ascii=False, sort_keys=False) + "\n")
    with open("crds%s.jsonl" % suffix, "w") as out:
        for crd_id, crd in crds.items():
            out.write(json.dumps({"id": crd_id, "crd": json.loads(crd)}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
