#!/usr/bin/env python3
"""Templates x parameters for the argocd-templates oracle (../shared/oracle/argocd-templates).

usage: python3 generate.py ORACLE > answers.jsonl
Each line: {"goTemplate", "options", "params", "template", "answer": {"ok"|"err": ...}}.
"""
import json, subprocess, sys

PARAMS = [
    {"name": "in-cluster", "server": "https://kubernetes.default.svc", "nameNormalized": "in-cluster",
     "metadata": {"labels": {"env": "prod", "region": "eu-west-1"}, "annotations": {}},
     "values": {"replicas": 3, "big": 1000000, "ratio": 1.5, "tiny": 0.00001, "on": True, "none": None},
     "list": ["b", "a", "b"], "path": {"basename": "guestbook", "path": "apps/guestbook", "segments": ["apps", "guestbook"]}},
    {"name": "Staging_Cluster.01", "server": "https://10.0.0.1", "metadata": {"labels": {}},
     "values": {"replicas": 0, "big": 123456, "ratio": -2.25, "tiny": 0, "on": False, "none": None},
     "list": [], "path": {"basename": "", "path": "", "segments": []}},
]
FLAT = [
    {"name": "in-cluster", "metadata.labels.env": "prod", "path.basename": "guestbook", "n": 3},
    {"name": "other", "path.basename": "x"},
]

GO = [
    "{{.name}}-{{ .metadata.labels.env | upper }}", "{{ .values.replicas }} {{ .values.big }} {{ .values.ratio }} {{ .values.tiny }}",
    "{{ .values.on }} {{ .values.none }} {{ .nope }} {{ .metadata.labels.nope }}", "{{ .nope.deeper }}", "{{ .values.none.x }}",
    "{{ .name.x }}", "{{ with .name }}{{ .x }}{{ end }}", "{{ index .metadata.labels \"env\" }}", "{{ index .list 0 }}", "{{ index .list 9 }}",
    "{{ len .list }} {{ len .name }} {{ len .metadata }}", "{{ len .nope }}", "{{ range $i, $v := .list }}{{ $i }}:{{ $v }},{{ else }}empty{{ end }}",
    "{{ range $k, $v := .values }}{{ $k }}={{ $v }};{{ end }}", "{{ range .values.replicas }}x{{ end }}", "{{ range 2 }}{{ . }}{{ end }}",
    "{{ if eq .name \"in-cluster\" }}local{{ else if hasPrefix \"Staging\" .name }}staging{{ else }}other{{ end }}",
    "{{ eq .values.replicas 3 }}", "{{ eq .values.replicas 3.0 }}", "{{ lt .values.ratio 2.0 }}", "{{ lt .name 3 }}", "{{ ne .name \"x\" }}",
    "{{ and .values.on .name }} {{ or .values.none .values.replicas \"z\" }} {{ not .list }}",
    "{{ printf \"%s|%d|%v|%q|%5.2f|%t|%x|%e|%g\" .name 42 .values.big .name .values.ratio true \"hi\" .values.big .values.tiny }}",
    "{{ printf \"%d\" .values.replicas }}", "{{ printf \"%s %s\" .name }}", "{{ printf \"%s\" .name 1 }}", "{{ print .values.replicas 1 \"a\" .nope }}",
    "{{ println .name 2 }}", "{{ html \"<a href='x'>&</a>\" }} {{ js \"it's <b>\" }} {{ urlquery \"a b/c?d=e\" }}",
    "{{ slice .name 1 3 }} {{ slice .list 1 }}", "{{ $x := .name }}{{ $x = upper $x }}{{ $x }}", "{{- /* c */ -}}  {{ .name -}}  !",
    "{{ define \"t\" }}<{{ . }}>{{ end }}{{ template \"t\" .name }}{{ block \"b\" .list }}[{{ len . }}]{{ end }}",
    "{{ range .list }}{{ if eq . \"a\" }}{{ break }}{{ end }}{{ . }}{{ end }}", "{{ range .list }}{{ if eq . \"a\" }}{{ continue }}{{ end }}{{ . }}{{ end }}",
    "{{ nope }}", "{{ env \"HOME\" }}", "{{ expandenv \"$HOME\" }}", "{{ getHostByName \"x\" }}", "{{ if }}", "{{ end }}", "{{ .name", "{{ $u }}",
    "{{ .name | 3 }}", "{{ 3x }}", "{{ \"a\".b }}", "{{ upper .values.replicas }}", "{{ upper .nope }}", "{{ upper 3 }}", "{{ indent \"2\" .name }}",
    "{{ upper }}", "{{ upper \"a\" \"b\" }}", "{{ .name 1 }}", "{{ nil }}", "{{ 1 2 }}",
    "{{ .name | lower | replace \".\" \"-\" | replace \"_\" \"-\" }}", "{{ title \"hello wide world\" }} {{ trim \"  x  \" }} {{ trimAll \"-\" \"--x--\" }}",
    "{{ trimPrefix \"https://\" .server }} {{ trimSuffix \".1\" .server }}", "{{ contains \"cluster\" .name }} {{ hasSuffix \"01\" .name }}",
    "{{ quote .name .values.replicas .values.none }} {{ squote .name }} {{ cat .name .values.none 1 }}", "x:{{ .name | nindent 4 }}{{ \"a\\nb\" | indent 2 }}",
    "{{ substr 0 4 .name }} {{ substr 2 99 .name }} {{ trunc 5 .name }} {{ trunc -3 .name }} {{ repeat 3 \"ab\" }}",
    "{{ (split \"-\" .name)._0 }} {{ splitList \"-\" .name }} {{ join \",\" .list }} {{ sortAlpha .list }} {{ join \"/\" .path.segments }}",
    "{{ default \"none\" .nope }} {{ default \"none\" .values.replicas }} {{ empty .list }} {{ coalesce .nope \"\" .name }} {{ ternary \"y\" \"n\" .values.on }}",
    "{{ list 1 \"a\" 2.5 }} {{ first .list }} {{ last .list }} {{ rest .list }} {{ initial .list }}", "{{ first .name }}",
    "{{ append .list \"c\" }} {{ prepend .list \"z\" }} {{ uniq .list }} {{ has \"a\" .list }} {{ without .list \"b\" }} {{ compact (list \"\" 0 \"x\" .nope) }}",
    "{{ $d := dict \"a\" 1 \"b\" \"x\" }}{{ get $d \"a\" }}{{ get $d \"z\" }} {{ hasKey $d \"b\" }} {{ $_ := set $d \"c\" 3 }}{{ keys $d | sortAlpha }} {{ $_ := unset $d \"a\" }}{{ $d }}",
    "{{ pluck \"env\" .metadata.labels (dict \"env\" \"dev\") }} {{ merge (dict \"env\" \"\" \"k\" 1) .metadata.labels }}",
    "{{ toString .values.big }} {{ toJson .values }} {{ toPrettyJson .path }} {{ atoi \"12\" }} {{ atoi \"x\" }} {{ int \"0x1f\" }} {{ int .values.ratio }} {{ int64 \"7\" }} {{ float64 \"1e3\" }}",
    "{{ regexMatch \"^[a-z-]+$\" .name }} {{ regexReplaceAll \"[^a-z]\" .name \"_\" }} {{ regexFind \"[0-9]+\" .server }} {{ regexReplaceAll \"(a)(b)?\" \"xaby\" \"<$1|${2}>\" }}",
    "{{ b64enc .name }} {{ b64enc .name | b64dec }} {{ b64dec \"%%%\" }} {{ sha256sum .name }}",
    "{{ add 1 2 .values.replicas }} {{ sub 10 .values.replicas }} {{ mul 2 3 4 }} {{ div 7 2 }} {{ mod 7 3 }} {{ max 1 5 3 }} {{ min 4 .values.replicas }} {{ add .values.ratio 1 }}",
    "{{ div 1 0 }}", "{{ normalize .name }} {{ slugify .name }} {{ slugify 8 .name }} {{ slugify 8 false .name }}",
    "{{ toYaml .values }}", "{{ toYaml .path }}", "{{ (fromYaml \"a: 1\\nb: [x, 2]\").b }} {{ fromYamlArray \"[1, 2.5, x]\" }}",
    "{{ .metadata.labels | toJson }} {{ toYaml .list }}", "{{ range $i, $e := .path.segments }}{{ if $i }}/{{ end }}{{ $e }}{{ end }}",
]
FLAT_T = ["{{name}}", "{{ name }}-{{metadata.labels.env}}", "{{ path.basename }}/{{ n }}", "{{ unknown }} {{}}", "}}{{ name }}", "{{name}} {{ x", "{{ a\n}}", "plain"]


def oracle(binary, spec):
    out = subprocess.run([binary], input=json.dumps(spec).encode(), capture_output=True, check=True).stdout
    return json.loads(out)


def main():
    binary = sys.argv[1]
    runs = [(True, [], PARAMS, GO), (True, ["missingkey=error"], PARAMS, GO), (False, [], FLAT, FLAT_T)]
    for go, options, params, templates in runs:
        rows = oracle(binary, {"params": params, "templates": templates, "goTemplate": go, "options": options, "json": True})
        for p, row in zip(params, rows):
            for t, answer in zip(templates, row):
                print(json.dumps({"goTemplate": go, "options": options, "params": p, "template": t, "answer": answer}, sort_keys=True))


main()
