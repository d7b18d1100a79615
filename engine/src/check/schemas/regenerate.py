#!/usr/bin/env python3
"""Regenerates kubernetes.defs.zz, the Kubernetes OpenAPI schemas fedrender checks built-in
kinds against, one set per minor version.

Source: the `kubernetes-validate` package on PyPI (Apache-2.0), which ships the JSON schemas of
each Kubernetes release's OpenAPI document (itself Apache-2.0, from kubernetes/kubernetes
api/openapi-spec): 1.25 on from its release `--version`, 1.16 to 1.24 from its release
`--old-version` (1.24.0, the last to ship them; its source archive, as it has no wheel). Only what validation reads is kept: types, properties, items, required,
enums, formats, additionalProperties, oneOf, references, and each kind's group, version and
kind; descriptions and patch metadata are dropped, identical definitions are stored once for
every version that has them, and the result is deflated. It is read by lines, not parsed as
one JSON document (a run would otherwise pay for parsing all of it): a `#` line of provenance,
then per definition, by index, `D`, the one kind it is the schema of (`group,version,kind`, or
`-` for none or several) and the definition as compact JSON with its keys sorted; then per minor
version `V 1.33` and a line `name index` for each definition name it has.

usage: python3 engine/src/check/schemas/regenerate.py [--version 1.37.0] [--old-version 1.24.0]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "kubernetes.defs.zz")
KEPT = {"type", "properties", "items", "required", "enum", "format", "additionalProperties",
        "oneOf", "$ref", "x-kubernetes-group-version-kind", "x-kubernetes-preserve-unknown-fields"}


def strip(schema):
    if isinstance(schema, list):
        return [strip(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept = {}
    for key, value in schema.items():
        if key not in KEPT:
            continue
        if key == "properties":
            kept[key] = {name: strip(field) for name, field in value.items()}
        elif key == "$ref":
            kept[key] = value.rsplit("/", 1)[-1]
        elif key in ("enum", "required", "x-kubernetes-group-version-kind"):
            kept[key] = value
        else:
            kept[key] = strip(value)
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--version", default="1.37.0", help="kubernetes-validate version")
    parser.add_argument("--old-version", default="1.24.0",
                        help="kubernetes-validate version for Kubernetes 1.16 to 1.24")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        new, old = os.path.join(work, "new"), os.path.join(work, "old")
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", new,
                        f"kubernetes-validate=={args.version}"], check=True)
        zipfile.ZipFile(glob.glob(os.path.join(new, "*.whl"))[0]).extractall(new)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
                        ":all:", "-q", "-d", old, f"kubernetes-validate=={args.old_version}"],
                       check=True)
        with tarfile.open(glob.glob(os.path.join(old, "*.tar.gz"))[0]) as archive:
            archive.extractall(old, filter="data")
        directories = {}
        for root, first, last in [
            (glob.glob(os.path.join(old, "*", "src", "kubernetes_validate"))[0], 16, 24),
            (os.path.join(new, "kubernetes_validate"), 25, None),
        ]:
            for directory in glob.glob(os.path.join(root, "kubernetes-json-schema",
                                                    "v1.*.0-local")):
                minor = int(os.path.basename(directory)[1:].split(".0-")[0].split(".")[1])
                if minor >= first and (last is None or minor <= last):
                    directories[minor] = directory
        definitions, index, versions = [], {}, {}
        for _, directory in sorted(directories.items()):
            minor = os.path.basename(directory)[1:].split(".0-")[0]
            with open(os.path.join(directory, "_definitions.json")) as file:
                data = json.load(file)
            names = {}
            for name, schema in sorted((data.get("$defs") or data["definitions"]).items()):
                text = json.dumps(strip(schema), sort_keys=True, separators=(",", ":"))
                if text not in index:
                    index[text] = len(definitions)
                    definitions.append(json.loads(text))
                names[name] = index[text]
            versions[minor] = names
    ordered = dict(sorted(versions.items(), key=lambda item: [int(p) for p in item[0].split(".")]))
    lines = [f"# kubernetes-validate {args.version} (1.25 on) and {args.old_version} (1.16 to 1.24) "
             "(Apache-2.0), from the Kubernetes OpenAPI documents (Apache-2.0)"]
    for definition in definitions:
        kinds = definition.get("x-kubernetes-group-version-kind") or []
        kind = (f"{kinds[0].get('group', '')},{kinds[0]['version']},{kinds[0]['kind']}"
                if len(kinds) == 1 else "-")
        lines.append(f"D {kind} " + json.dumps(definition, sort_keys=True, separators=(",", ":")))
    for minor, names in ordered.items():
        assert not any(" " in name for name in names), "a definition name holds a space"
        lines.append(f"V {minor}")
        lines += [f"{name} {position}" for name, position in names.items()]
    blob = ("\n".join(lines) + "\n").encode()
    with open(OUTPUT, "wb") as file:
        file.write(zlib.compress(blob, 9))
    print(f"{OUTPUT}: {len(versions)} versions, {len(definitions)} definitions, "
          f"{len(blob) // 1024} KiB of text, {os.path.getsize(OUTPUT) // 1024} KiB deflated")


if __name__ == "__main__":
    main()
