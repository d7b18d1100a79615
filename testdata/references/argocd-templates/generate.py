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
    {"name": "Ünïcode-名前 cluster", "server": "https://[::1]:6443/a?b=c&d", "metadata": {"labels": {"a-b": "x", "": "empty"}},
     "values": {"replicas": 9007199254740993, "big": 1e21, "ratio": 123456.789, "tiny": -0.0, "on": "true", "none": [None]},
     "list": [{"k": 1}, [1, 2], None, True, 1.25e-7, "<&>"], "path": {"basename": "a b", "path": "a/b", "segments": ["a", "b"]}},
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

GO += [
    # Numbers as text/template reads them, and as fmt prints them.
    "{{ 1_000 }} {{ 0x1F }} {{ 010 }} {{ 1e3 }} {{ 1.0 }} {{ -2 }} {{ 'a' }} {{ .5 }}", "{{ 08 }}", "{{ 99999999999999999999 }}",
    "{{ printf \"%v %v %v %v %v\" 1e20 1e21 123456789.0 0.000123 -0.0 }}", "{{ printf \"%08.3f|%-8d|%+.1e|%x|%X|%o|%b|%c|%U|%q\" 3.14159 42 12345.678 255 255 8 5 65 9731 65 }}",
    "{{ printf \"%6s|%-6s|%.2s|%q|%+q|%x|% x|%#x\" \"ab\" \"ab\" \"abc\" \"é\\n\" \"é\" \"hi\" \"hi\" \"hi\" }}", "{{ printf \"%v|%d|%s\" .list .list .metadata }}",
    "{{ printf \"%!\" }} {{ printf \"%z\" 1 }} {{ printf \"%d %%\" 1 }} {{ printf \"%*d\" 5 1 }} {{ printf \"%v\" nil }}", "{{ printf \"%t\" 1 }} {{ printf \"%s\" .nope }}",
    "{{ .values }}", "{{ .metadata }}", "{{ .path.segments }}", "{{ . | len }}",
    # Trim markers, comments, raw strings, chars, newlines in actions.
    "a \n\t {{- .name }} \n {{- \" b \" -}} \n c", "{{- /* a comment */ -}}x", "{{/* unclosed", "{{ /* bad */ }}", "{{ `raw\\n\"` }}", "{{ \"\\u00e9\\t\\x41\" }}",
    "{{ 'x' }} {{ printf \"%c\" 'é' }}", "{{ .name\n| upper\n}}", "{{ \"unterminated }}", "{{ `unterminated }}", "{{ 'ab' }}", "{{ # }}", "{{ .name | }}", "{{ | .name }}",
    # Variables and scopes.
    "{{ $a := 1 }}{{ $b := 2 }}{{ $a }}{{ $b }}{{ $ }}", "{{ $x := \"o\" }}{{ with $x := .name }}{{ $x }}{{ end }}{{ $x }}", "{{ range $i := .list }}{{ $i }}{{ end }}",
    "{{ range $i, $v, $w := .list }}{{ end }}", "{{ $a, $b := 1 }}", "{{ $x = 1 }}", "{{ range $k, $v := 3 }}{{ end }}", "{{ range .name }}{{ end }}", "{{ range .values.on }}{{ end }}",
    "{{ $.name }} {{ with .metadata }}{{ $.name }}/{{ .labels.env }}{{ end }}", "{{ range .list }}{{ $.name }}{{ end }}",
    # Control flow edges.
    "{{ if .values.none }}a{{ else }}b{{ end }}", "{{ if .list }}a{{ else }}b{{ end }}", "{{ if 0.0 }}a{{ else }}b{{ end }}", "{{ if .metadata.annotations }}a{{ else }}b{{ end }}",
    "{{ with .nope }}a{{ else with .name }}{{ . }}{{ end }}", "{{ if .x }}{{ else }}{{ else }}{{ end }}", "{{ else }}", "{{ range .list }}{{ end }}{{ break }}",
    "{{ if .name }}{{ break }}{{ end }}", "{{ template \"nope\" }}", "{{ define \"a\" }}1{{ end }}{{ define \"a\" }}2{{ end }}{{ template \"a\" }}",
    "{{ define \"r\" }}{{ if . }}{{ len . }}{{ template \"r\" (rest .) }}{{ end }}{{ end }}{{ template \"r\" .list }}", "{{ template \"x\" 1 2 }}", "{{ template .name }}",
    # Calls and argument checks.
    "{{ .name.x.y }}", "{{ .values.replicas.x }}", "{{ (.name).x }}", "{{ (dict \"a\" (dict \"b\" 1)).a.b }}", "{{ nil.x }}", "{{ (nil).x }}", "{{ call .name }}", "{{ call .nope }}",
    "{{ index . \"name\" }} {{ index .metadata \"labels\" \"env\" }} {{ index .list 1.0 }}", "{{ index .name 1 }}", "{{ index .values.big 1 }}", "{{ index nil 1 }}", "{{ index .list -1 }}", "{{ index .list 3 }}",
    "{{ slice .name 3 1 }}", "{{ slice .list 0 1 2 3 }}", "{{ slice .name 0 1 2 }}", "{{ slice .values.big 1 }}", "{{ len 3 }}", "{{ len .values.none }}",
    "{{ eq .nope .nope }} {{ eq .nope 1 }} {{ eq .values.none nil }}", "{{ eq .list .list }}", "{{ eq .metadata 1 }}", "{{ eq 1 }}", "{{ lt true false }}", "{{ lt .list 1 }}",
    "{{ eq \"a\" \"b\" \"a\" }} {{ le 2 2 }} {{ gt 3 2 }} {{ ge 1.5 2.5 }} {{ ne 1 2 }}", "{{ and }}", "{{ or .nope .values.none }}", "{{ and 1 .nope.x }}", "{{ not 1 2 }}",
    "{{ print }}{{ print nil }}{{ print .nope }}{{ print .values.none }}", "{{ println }}", "{{ html .values.big }} {{ js \"\\u2028=\" }} {{ urlquery 1 2 }}",
    "{{ upper .values.none }}", "{{ .values.none | upper }}", "{{ .nope | upper }}", "{{ \"x\" | printf \"%s-%s\" \"a\" }}", "{{ \"x\" | .name }}", "{{ 3 | printf \"%d\" }}",
    "{{ repeat 2.5 \"x\" }}", "{{ repeat (add 1 1) \"x\" }}", "{{ repeat -1 \"x\" }}", "{{ indent .values.replicas \"x\" }}", "{{ ternary 1 2 \"true\" }}", "{{ ternary 1 2 .values.on }}",
    "{{ substr 5 1 \"abc\" }}", "{{ substr -1 2 \"abc\" }}", "{{ trunc 99 \"abc\" }}", "{{ trunc -99 \"abc\" }}", "{{ upper \"ß\" }} {{ lower \"ÀÉ\" }} {{ title \"élan vital-x_y\" }}",
    # sprig lists and dicts in edge cases.
    "{{ first .nope }}", "{{ first 3 }}", "{{ last .path.segments }} {{ rest (list) }} {{ initial (list) }} {{ first (list) }}", "{{ append .name \"x\" }}", "{{ has 1 3 }}", "{{ has 1 .nope }}",
    "{{ uniq (list 1 1.0 \"1\" 1) }}", "{{ without (list 1 2 3 2) 2 3 }}", "{{ dict \"a\" }} {{ dict 1 2 }} {{ dict }}", "{{ get .metadata \"labels\" }}", "{{ get .name \"x\" }}",
    "{{ keys .metadata.labels | sortAlpha }} {{ values (dict \"a\" 1) }} {{ pluck \"x\" (dict \"y\" 1) }}", "{{ merge (dict \"a\" (dict \"x\" 1 \"y\" \"\")) (dict \"a\" (dict \"y\" 2 \"z\" 3) \"b\" .values.none) }}",
    "{{ $d := dict }}{{ $_ := set $d \"k\" .list }}{{ $d | toJson }}", "{{ sortAlpha (list 3 1 \"b\" .values.none) }} {{ sortAlpha .name }}", "{{ join \", \" (list 1 .values.none \"a\") }} {{ join \"-\" .name }}",
    "{{ default 5 .values.replicas }} {{ default (list 1) .list }} {{ empty .values }} {{ empty .values.none }} {{ coalesce .nope .values.none }}", "{{ cat }}{{ quote }}{{ squote .nope }}",
    # Conversions, regex, encodings, math in edge cases.
    "{{ int \"1.0\" }} {{ int \"010\" }} {{ int \"x\" }} {{ int .values.on }} {{ int nil }} {{ float64 \"x\" }} {{ float64 .values.replicas }} {{ toString .list }} {{ toString nil }}",
    "{{ atoi \" 1\" }} {{ atoi \"-5\" }} {{ atoi \"1.5\" }}", "{{ toJson \"<&>\" }} {{ toJson .values.none }} {{ toJson 1e21 }} {{ toJson 1e-7 }} {{ toJson 0.1 }} {{ toJson (list) }} {{ toPrettyJson (dict) }}",
    "{{ toPrettyJson .values }}", "{{ regexMatch \"(\" \"x\" }}", "{{ regexFind \"(\" \"x\" }}", "{{ regexReplaceAll \"a|b\" \"abc\" \"$0$0\" }} {{ regexReplaceAll \"(?P<x>a)\" \"abc\" \"[$x]\" }}",
    "{{ b64dec \"aGk\" }} {{ b64dec \"aGk=\" }} {{ b64enc \"\" }}", "{{ add }} {{ add \"3\" 1.9 true }} {{ sub 1.9 \"1\" }} {{ mul 1 }} {{ max 3 }} {{ min -1 .nope }}", "{{ mod 1 0 }}",
    "{{ add 1 2 | printf \"%T\" }}", "{{ len (add 1 2) }}", "{{ indent (len .list) \"x\" }}",
    # Argo CD's functions in edge cases.
    "{{ normalize \"--Hello..World_ÄÖ--\" }} {{ slugify \"Ünïcode Nàme\" }} {{ slugify 5 true \"ab-cd-ef\" }} {{ slugify 0 \"abc\" }}", "{{ slugify \"a\" 1 }}", "{{ slugify 3.0 \"abc\" }}",
    "{{ toYaml .nope }} {{ toYaml \"yes\" }} {{ toYaml (list) }} {{ toYaml (dict) }} {{ toYaml 1.5 }} {{ toYaml .values.big }}", "{{ toYaml (dict \"k\" \"a: b\" \"n\" \"010\" \"e\" \"\") }}",
    "{{ fromYaml \"- a\" }}", "{{ fromYaml \"a: [\" }}", "{{ fromYamlArray \"a: 1\" }}", "{{ fromYaml \"\" }} {{ fromYamlArray \"\" }}", "{{ (fromYaml \"n: 1000000\").n }} {{ fromYaml \"b: yes\\nc: ~\" }}",
]
FLAT_T += ["{{  path.basename  }}", "{{\tname\n}}", "{{ name }}{{", "a}}b{{name}}", "{{{{name}}}}", "{{ n }}", "{{ metadata.labels.env}}-{{metadata.labels.nope }}", "é{{ name }}é"]

GO += [
    "{{ dig \"metadata\" \"labels\" \"env\" \"none\" . }} {{ dig \"metadata\" \"nope\" \"x\" \"none\" . }} {{ dig \"name\" \"x\" \"d\" . }}", "{{ dig \"a\" \"b\" }}", "{{ dig 1 \"d\" . }}", "{{ dig \"a\" \"d\" .list }}",
    "{{ pick .metadata.labels \"env\" \"nope\" }} {{ omit .metadata.labels \"env\" }} {{ pick . }}", "{{ $c := deepCopy .metadata }}{{ $_ := set $c.labels \"x\" 1 }}{{ .metadata.labels }} {{ $c.labels }}",
    "{{ mergeOverwrite (dict \"a\" 1 \"b\" (dict \"x\" 1 \"y\" 2)) (dict \"a\" 2 \"b\" (dict \"y\" 3)) (dict \"c\" 4) }}", "{{ mergeOverwrite (dict \"a\" 1 \"b\" \"x\" \"l\" (list 1)) (dict \"a\" 0 \"b\" \"\" \"l\" (list) \"n\" nil) }}",
    "{{ merge (dict \"l\" (list 1) \"z\" 0) (dict \"l\" (list 2 3) \"z\" 5) }}", "{{ concat .list (list 1) .path.segments }} {{ concat }}", "{{ concat .name }}", "{{ concat .nope }}", "{{ reverse .list }} {{ reverse (list) }}", "{{ reverse .name }}",
    "{{ add1 .values.replicas }} {{ add1 \"x\" }} {{ until 3 }} {{ until -2 }} {{ until 0 }} {{ untilStep 1 10 3 }} {{ untilStep 5 0 -2 }} {{ untilStep 0 5 -1 }}", "{{ range until 3 }}{{ . }}{{ end }}", "{{ until .values.replicas }}",
    "{{ (fromJson \"{\\\"a\\\": 1000000, \\\"b\\\": [true, null]}\").a }} {{ fromJson \"[1, 2]\" }} {{ fromJson \"bad\" }} {{ toRawJson (dict \"h\" \"<a&b>\") }} {{ toRawJson .path }}",
    "{{ regexFindAll \"[a-z]+\" .server -1 }} {{ regexFindAll \"[a-z]+\" .server 2 }} {{ regexFindAll \"x*\" \"abc\" -1 }} {{ regexFindAll \"q\" \"abc\" -1 }}",
    "{{ regexSplit \"[.:/]+\" .server -1 }} {{ regexSplit \"[.:/]+\" .server 2 }} {{ regexSplit \"x*\" \"abc\" -1 }} {{ regexSplit \"a\" \"\" -1 }} {{ regexSplit \"a\" \"b\" 0 }}",
    "{{ regexReplaceAllLiteral \"(a)\" \"xax\" \"$1\" }} {{ regexQuoteMeta \"a.b*c[d]-e#f\" }}", "{{ typeOf .name }} {{ typeOf .values.big }} {{ typeOf .list }} {{ typeOf .metadata }} {{ typeOf nil }} {{ typeOf (until 2) }} {{ typeOf (splitList \",\" \"a\") }} {{ typeOf (add 1 1) }} {{ typeOf 1 }}",
    "{{ kindOf .name }} {{ kindOf .list }} {{ kindOf .metadata }} {{ kindOf nil }} {{ kindOf 1 }} {{ kindOf (add 1 1) }}", "{{ deepEqual .list (list \"b\" \"a\" \"b\") }} {{ deepEqual 1 1 }} {{ deepEqual 1 (add 0 1) }} {{ deepEqual nil .nope }} {{ deepEqual .metadata .metadata }}",
    "{{ nospace \" a b\\tc\\n\" }}",
]

GO += [
    # Lexer and parser messages.
    "{{ .a.b.c }}", "{{ $x := 1 }}{{ $x.y }}", "{{ $.a.b }}", "{{ (1).x }}", "{{ .name.\"x\" }}", "{{ .a .b }}", "{{ \"a\" \"b\" }}", "{{ range }}{{ end }}", "{{ with }}{{ end }}",
    "{{ if 1 }}{{ else if }}{{ end }}", "{{ if 1 }}{{ else }}{{ else if 2 }}{{ end }}", "{{ range .list }}{{ else }}{{ break }}{{ end }}", "{{ range .list }}{{ with . }}{{ break }}{{ end }}{{ . }}{{ end }}",
    "{{ define \"x\" }}{{ end }}{{ define \"x\" }}y{{ end }}{{ template \"x\" }}", "{{ define x }}{{ end }}", "{{ define \"x\" 1 }}{{ end }}", "{{ if 1 }}{{ define \"x\" }}{{ end }}{{ end }}",
    "{{ template \"x\" }}{{ define \"x\" }}{{ $ }}{{ end }}", "{{ block \"b\" }}{{ end }}", "{{ block \"b\" . }}{{ else }}{{ end }}", "{{ end }}{{ if }}", "a\n{{ if\n .x }}\n{{ end", "{{ if .x }}\n\n{{ else }}\n",
    "{{ .x\n.y }}", "{{ (.name }}", "{{ .name) }}", "{{ ((1)) }}", "{{ (1 | printf \"%d\") }}", "{{ 1 | (printf \"%d\") }}", "{{ printf (\"%d\") 2 }}", "{{ $x := }}", "{{ $x := 1 2 }}",
    "{{ $x = 1 }}", "{{ $x, $y := 1 }}", "{{ range $x, := .list }}{{ end }}", "{{ range $x, $y, $z := .list }}{{ end }}", "{{ with $x, $y := 1 }}{{ end }}", "{{ true.x }}", "{{ .name | true }}",
    "{{ .name | .values }}", "{{ .name | $ }}", "{{ . | printf }}", "{{ 0x10 }} {{ 0o17 }} {{ 0b101 }} {{ 1e-2 }} {{ 0x1p4 }} {{ -0 }} {{ +5 }}", "{{ 1i }}", "{{ 0x }}", "{{ 1__0 }}", "{{ '\\n' }} {{ '\\x41' }} {{ '\\u00e9' }}",
    "{{ \"\\z\" }}", "{{ '' }}", "{{ @ }}", "{{ .name@ }}", "{{ $x@ }}", "{{ break }}", "{{ continue }}", "{{ range .list }}{{ break 1 }}{{ end }}", "{{/**/}}", "{{- /**/ -}}", "{{/* a */ -}}",
    "x {{- /* a */}} y", "{{ .name -}}\n  \n{{- .name }}", "{{-.name}}", "{{ .name-}}", "{{- 3}}", "{{3 -}}", "{{ 3 - }}", "{{ - 3 }}", "{{ nil | print }}", "{{ print nil nil }}", "{{ len nil }}",
    "{{ index . }}", "{{ index .metadata.labels 1 }}", "{{ index .list \"a\" }}", "{{ index .list nil }}", "{{ index .list 1 0 }}", "{{ slice }}", "{{ not }}", "{{ eq }}", "{{ and 1 }} {{ or 0 }}",
    "{{ lt 1 2.0 }}", "{{ lt \"a\" \"b\" }}", "{{ gt 2.5 1.5 }}", "{{ le nil 1 }}", "{{ eq nil nil }}", "{{ eq .values.none .nope }}", "{{ eq true true }}", "{{ eq .values.on true }}", "{{ ne .values.replicas .values.big }}",
    "{{ if and .values.on (gt (len .list) 1) }}many{{ end }}", "{{ define \"t\" }}{{ .x.y }}{{ end }}{{ template \"t\" .name }}", "{{ define \"t\" }}{{ .nope }}{{ end }}{{ template \"t\" . }}",
    "{{ define \"t\" }}{{ $ }}{{ end }}{{ template \"t\" .path.basename }}", "{{ $n := len .list }}{{ if gt $n 2 }}{{ $n }}{{ end }}", "{{ printf \"%03d-%s\" (len .list) (.name | upper) }}",
]


def random_templates(count, seed=54):
    """Pipelines assembled from a fixed pool, with a fixed seed: functions given operands of
    every kind, so that argument conversion, typed results and messages meet."""
    import random
    rng = random.Random(seed)
    operands = [".name", ".server", ".values.replicas", ".values.big", ".values.ratio", ".values.on", ".values.none", ".nope",
                ".list", ".metadata.labels", ".path.segments", ".path.basename", "1", "0", "-3", "2.5", "\"a-b\"", "\"\"", "true", "nil",
                "(list 1 \"x\")", "(dict \"k\" 1)", "(add 1 2)", "(int .values.ratio)", "$", "."]
    unary = ["upper", "lower", "title", "trim", "quote", "squote", "toString", "toJson", "toYaml", "len", "empty", "first", "last",
             "rest", "uniq", "compact", "sortAlpha", "int", "int64", "float64", "b64enc", "sha256sum", "normalize", "slugify", "not",
             "print", "html", "urlquery", "atoi", "cat", "initial", "toPrettyJson", "js"]
    binary = ["eq", "ne", "lt", "le", "gt", "ge", "and", "or", "default", "add", "sub", "mul", "max", "min", "contains", "hasPrefix",
              "trimPrefix", "trimSuffix", "join", "split", "splitList", "index", "has", "without", "append", "prepend", "get", "hasKey",
              "repeat", "trunc", "indent", "nindent", "printf", "regexMatch", "regexFind", "pluck", "merge", "coalesce", "ternary", "div", "mod"]
    out = []
    for _ in range(count):
        shape = rng.random()
        a, b = rng.choice(operands), rng.choice(operands)
        if shape < 0.35:
            t = "{{ %s %s }}" % (rng.choice(unary), a)
        elif shape < 0.75:
            t = "{{ %s %s %s }}" % (rng.choice(binary), a, b)
        elif shape < 0.9:
            t = "{{ %s | %s }}" % (a, rng.choice(unary))
        else:
            t = "{{ %s %s | %s }}" % (rng.choice(binary), a, rng.choice(unary))
        if "printf" in t:
            t = t.replace("printf", "printf \"%v-%d-%s\"", 1)
        out.append(t)
    # Go ranges over a map in random order for keys and values: only sorted, they are answers.
    return sorted(t for t in set(out) if " keys" not in t and " values" not in t)


GO += random_templates(700)


GO += [
    # sprig's synonyms, its `must` list functions and small string functions.
    "{{ hello }} {{ all 1 \"a\" true }} {{ all 1 \"\" }} {{ any 0 \"\" nil }} {{ any 0 .name }} {{ all }} {{ any }} {{ all .list .values.on }}",
    "{{ plural \"app\" \"apps\" (len .list) }} {{ plural \"a\" \"b\" 1.0 }} {{ untitle \"Hello World  FOO\" }} {{ untitle .name }} {{ untitle \"İstanbul ǅemal\" }}",
    "{{ $p := splitn \".\" 2 .server }}{{ $p._0 }} {{ $p._1 }} {{ splitn \".\" 0 \"a.b\" | len }} {{ splitn \"\" 2 \"abc\" }} {{ splitn \".\" -1 \"a.b.c\" }} {{ splitn \"\" 5 \"ab\" }} {{ splitn \",\" 3 \"\" }}",
    "{{ plural \"a\" \"b\" \"1\" }}", "{{ splitn \".\" .values.ratio \"a.b\" }}",
    "{{ tuple 1 \"a\" }} {{ tuple }} {{ biggest 1 5 3 }} {{ biggest .values.replicas \"7\" }} {{ trimall \"-\" \"--a--\" }}",
    "{{ mustFirst .list }} {{ mustLast .list }} {{ mustRest .list }} {{ mustInitial .list }} {{ mustAppend .list 2 }} {{ mustPush .list 2 }} {{ mustPrepend .list 0 }} {{ mustReverse .list }}",
    "{{ mustUniq .list }} {{ mustWithout .list \"b\" }} {{ mustHas \"a\" .list }} {{ mustCompact .list }} {{ mustSlice .path.segments 1 }}",
    "{{ mustFirst .name }}", "{{ mustLast nil }}", "{{ mustRest 3 }}", "{{ mustInitial .metadata }}", "{{ mustPush .name 1 }}", "{{ mustPrepend .values 1 }}", "{{ mustReverse 3 }}",
    "{{ mustUniq .name }}", "{{ mustWithout .name }}", "{{ mustHas 1 .name }}", "{{ mustCompact .name }}", "{{ mustSlice .name }}", "{{ mustSlice .list 5 }}",
]

GO += [
    # fmt's widths and precisions from arguments, and its bound on them.
    "{{ printf \"[%*d] [%-*d] [%0*d] [%*d]\" -4 1 3 2 -5 3 (len .list) 4 }}", "{{ printf \"[%.*f] [%.*f] [%.*s]\" 2 .values.ratio -1 1.5 \"x\" \"abc\" }}",
    "{{ printf \"[%*d]\" \"x\" 1 }}", "{{ printf \"[%*d]\" }}", "{{ printf \"[%.*d]\" 1 }}", "{{ printf \"[%*d]\" 1000001 1 }}", "{{ printf \"[%*d]\" -1000001 1 }}",
    "{{ printf \"%99999999d|%d\" 1 2 }}", "{{ printf \"%.99999999f|\" 1.0 }}", "{{ printf \"%1000001d\" 1 | len }}", "{{ printf \"%*.*f|\" 8 3 .values.ratio }}",
]

GO += [
    # sprig's other hashes and base32.
    "{{ sha1sum .name }} {{ sha1sum \"\" }} {{ sha1sum (repeat 100 .name) }} {{ adler32sum .name }} {{ adler32sum \"\" }} {{ adler32sum (repeat 5000 \"ÿ~\") }}",
    "{{ b32enc .name }} {{ b32enc \"\" }} {{ b32enc .server }} {{ sha256sum (repeat 100 .server) }}",
]

GO += [
    # sprig's must forms, reflection predicates, lists, octal, base32 decoding, SHA-512.
    '{{ mustRegexFind "(" "x" }}', '{{ mustRegexFind "[0-9]+" .server }}', '{{ mustRegexMatch "(" "x" }}', '{{ mustRegexMatch "^[a-z-]+$" .name }}',
    '{{ mustRegexFindAll "[a-z]" .name 3 }}', '{{ mustRegexFindAll "[" "x" 1 }}', '{{ mustRegexReplaceAll "(a)" "xab" "<$1>" }}',
    '{{ mustRegexReplaceAll "a)" "x" "y" }}', '{{ mustRegexReplaceAllLiteral "a" "xab" "$1" }}', '{{ mustRegexReplaceAllLiteral "*" "x" "y" }}',
    '{{ mustRegexSplit "-" .name -1 }}', '{{ mustRegexSplit "(" "x" 1 }}',
    '{{ fromJson "{" }}', '{{ mustFromJson "{" }}', '{{ mustFromJson "[1, 2.5, \\"x\\", null, true]" }}', '{{ (mustFromJson "{\\"a\\":{\\"b\\":[1]}}").a.b }}',
    '{{ mustFromJson "[1,]" }}', '{{ mustFromJson "{\\"a\\" 1}" }}', '{{ mustFromJson "{\\"a\\":1 x" }}', '{{ mustFromJson "[1 2]" }}', '{{ mustFromJson "1 2" }}',
    '{{ mustFromJson "tru" }}', '{{ mustFromJson "nulx" }}', '{{ mustFromJson "-x" }}', '{{ mustFromJson "1.x" }}', '{{ mustFromJson "1e+" }}', '{{ mustFromJson "0123" }}',
    '{{ mustFromJson "\\"\\\\x\\"" }}', '{{ mustFromJson "\\"\\\\u12g4\\"" }}', '{{ mustFromJson "\\"\\\\ud800x\\"" }}', '{{ mustFromJson "\\"\\\\ud83d\\\\ude00\\"" }}',
    '{{ mustFromJson "\\"\\\\ud800\\\\ud800\\"" }}', '{{ mustFromJson "{1:2}" }}', '{{ mustFromJson "é" }}', '{{ mustFromJson "" }}', '{{ mustFromJson "  " }}', '{{ mustFromJson "[1}" }}',
    '{{ mustFromJson "{\\"a\\":1]" }}', '{{ mustFromJson "{\\"a\\":}" }}', '{{ mustFromJson "{\\"a\\":1,\\"a\\":2}" }}', '{{ mustFromJson "\\"a\\tb\\"" }}',
    '{{ mustFromJson "[1e400, 2]" }}', '{{ fromJson "[1e400, 2]" }}', '{{ mustFromJson "{\\"a\\":{\\"b c\\":1e400}}" }}', '{{ mustFromJson "[[2,1e400],1e999]" }}',
    '{{ mustFromJson "[{\\"a/b~\\":1e400}]" }}', '{{ mustFromJson "1e400" }}',
    '{{ mustFromJson (printf "%s1%s" (repeat 10000 "[") (repeat 10000 "]")) | len }}', '{{ mustFromJson (printf "%s1%s" (repeat 10001 "[") (repeat 10001 "]")) | len }}',
    '{{ fromJson (printf "%s1%s" (repeat 300 "[") (repeat 300 "]")) | len }}',
    '{{ mustToJson .values }}', '{{ mustToPrettyJson .path }}', '{{ mustToRawJson "<a>" }}', '{{ mustToJson (float64 "NaN") }}', '{{ toJson (float64 "NaN") }}',
    '{{ toJson (list (float64 "-Inf")) }}', '{{ toRawJson (dict "a" (float64 "Inf")) }}', '{{ mustToPrettyJson (float64 "+Inf") }}', '{{ toPrettyJson (float64 "nan") }}',
    '{{ mustDeepCopy .metadata }}', '{{ mustDeepCopy nil }}', '{{ mustMerge (dict "a" "") (dict "a" 1 "b" 2) }}', '{{ mustMergeOverwrite (dict "a" 1) (dict "a" 2) }}',
    '{{ fail "boom" }}', '{{ fail .name }}', '{{ fail 3 }}',
    '{{ typeIs "string" .name }} {{ typeIs "float64" .values.replicas }} {{ typeIs "<nil>" nil }} {{ typeIs "int" 3 }} {{ typeIs "[]interface {}" .list }}',
    '{{ typeIsLike "string" .name }} {{ typeIsLike "*string" .name }} {{ typeIsLike "map[string]interface {}" .metadata }}',
    '{{ kindIs "map" .metadata }} {{ kindIs "slice" .list }} {{ kindIs "invalid" nil }} {{ kindIs "invalid" .nope }} {{ kindIs "float64" .values.ratio }} {{ kindIs "int64" (add 1 1) }}',
    '{{ toStrings .list }} {{ toStrings .name }} {{ toStrings nil }} {{ toStrings (list 1 nil 2.5 (list 1)) }}',
    '{{ chunk 2 (list 1 2 3) }}', '{{ chunk 3 .list }}', '{{ chunk 1 (list) }}', '{{ chunk 0 (list 1 2 3) }}', '{{ chunk -1 (list 1 2) }}', '{{ chunk -1 (list 1 2 3) }}',
    '{{ chunk -1 (list 1) }}', '{{ chunk -2 (list) }}', '{{ chunk 2 (list) }}', '{{ chunk 2 "abc" }}', '{{ mustChunk 2 "abc" }}', '{{ chunk 2 nil }}', '{{ mustChunk 5 (list 1 2 3 4 5 6 7) }}',
    '{{ seq 3 }}', '{{ seq 1 3 }}', '{{ seq 1 2 9 }}', '{{ seq 5 1 }}', '{{ seq 1 0 5 }}', '{{ seq }}', '{{ seq 1 2 3 4 }}', '{{ seq 0 }}', '{{ seq -2 }}', '{{ seq 3 -1 1 }}',
    '{{ seq 3 1 1 }}', '{{ seq 10 -3 0 }}', '{{ seq "3" }}',
    '{{ toDecimal "0777" }} {{ toDecimal "9" }} {{ toDecimal 10 }} {{ toDecimal "-17" }} {{ toDecimal "+7" }} {{ toDecimal "" }} {{ toDecimal 1.5 }} {{ toDecimal "7_7" }} {{ toDecimal "0o7" }} {{ toDecimal "1777777777777777777777" }}',
    '{{ b32dec "MFRGG===" }} {{ b32dec (b32enc .name) }} {{ b32dec "x" }} {{ b32dec "" }} {{ b32dec "MZXW6YQ=" }} {{ b32dec "MZXW6YTB\\nOI======" }}',
    '{{ b32dec "AA=A====" }} {{ b32dec "AAA=AAAA" }} {{ b32dec "MMMMMMMMM" }} {{ b32dec "MMMMMM" }} {{ b32dec "A=" }} {{ b32dec "AA=" }} {{ b32dec "AA==" }} {{ b32dec "AA===" }}',
    '{{ b32dec "AAAA=" }} {{ b32dec "AAAAA=" }} {{ b32dec "AAAAAAA=" }} {{ b32dec "A=======" }} {{ b32dec "AAA=====" }} {{ b32dec "AAAAAA==" }} {{ b32dec "AA======" }} {{ b32dec "AAAAAAA=x" }}',
    '{{ b32dec "mzxw6===" }} {{ b32dec "MZXW6===MZXW6===" }} {{ b32dec "MZXW6YTBOI" }}',
    '{{ sha512sum .name }} {{ sha512sum "" }} {{ sha512sum (repeat 200 .server) }}',
    # sprig's float functions: shopspring/decimal arithmetic, then float64.
    '{{ addf 1 2.5 }} {{ addf }} {{ addf 0.1 0.2 }} {{ subf 1 0.1 }} {{ mulf 1.1 3 }} {{ divf 1 3 }} {{ divf 2 3 }} {{ divf -2 3 }} {{ add1f 1.5 }} {{ add1f "x" }}',
    '{{ divf 1 0 }}', '{{ addf (float64 "NaN") 1 }}', '{{ divf 1e300 1e-300 }}', '{{ mulf 1e308 10 }}', '{{ divf 1e-20 3 }}', '{{ subf 0.3 0.1 0.1 0.1 }}',
    '{{ mulf .values.ratio .values.big .values.tiny }} {{ addf .values.replicas .values.ratio "2.25" true nil }} {{ divf .values.big 7 }} {{ subf .values.tiny 1 }}',
    '{{ divf 123456789.123 0.000321 }} {{ mulf 1.0000000000000002 0.9999999999999999 }} {{ addf 1e21 1 }} {{ divf 22 7 7 }} {{ divf 5e-324 2 }} {{ mulf 5e-324 0.5 }}',
    '{{ maxf 1 2.5 "3" }} {{ minf 1 -2.5 }} {{ maxf }} {{ minf (float64 "NaN") 1 }} {{ maxf -0.0 0 }} {{ minf 0 "-0" }} {{ maxf .values.ratio .values.replicas }}',
    '{{ ceil 1.2 }} {{ floor "1.8" }} {{ ceil -1.5 }} {{ floor -1.5 }} {{ ceil .values.big }} {{ floor "x" }} {{ ceil nil }}',
    '{{ round 1.2345 2 }} {{ round 2.5 0 }} {{ round -2.5 0 }} {{ round 1.005 2 }} {{ round 1.5 0 0.4 }} {{ round 1234.5678 -2 }} {{ round "3.7" 0 }} {{ round 1e300 10 }}',
    '{{ round 1.5 "0" }}', '{{ round 1.5 0 "x" }}', '{{ round 1.5 0 1 }}', '{{ round 1.5 0 (add 1 1) }}', '{{ round 1.5 0 .values.ratio }}', '{{ round 1.5 0 true }}', '{{ round 1.5 }}',
]


GO += [
    # sprig's urlParse and urlJoin over net/url.
    '{{ urlParse .server }}', '{{ (urlParse .server).hostname }}', '{{ urlParse "https://user:pa%20ss@Example.com:8443/a%2Fb/c d?x=1&y=2#frag%20x" }}',
    '{{ urlParse "https://kubernetes.default.svc" }}', '{{ urlParse "https://[::1]:6443/a?b=c&d" }}', '{{ urlParse "mailto:joe@x.com" }}', '{{ urlParse "/rel/path?q" }}',
    '{{ urlParse "a:b" }}', '{{ urlParse ":x" }}', '{{ urlParse "1a:b" }}', '{{ urlParse "a/b:c" }}', '{{ urlParse "http://x:y" }}', '{{ urlParse "http://[::1" }}',
    '{{ urlParse "http://a b" }}', '{{ urlParse "http://%zz" }}', '{{ urlParse "%zz" }}', '{{ urlParse "%z" }}', '{{ urlParse "" }}', '{{ urlParse "*" }}', '{{ urlParse "x?" }}',
    '{{ urlParse "x?a?b" }}', '{{ urlParse "HTTP://h/é" }}', '{{ urlParse "http://u@h@g/" }}', '{{ urlParse "//host/p" }}', '{{ urlParse "///p" }}', '{{ urlParse "http://a\u0001" }}',
    '{{ urlParse "http://h/#a#b" }}', '{{ urlParse "http://h/#%zz" }}', '{{ urlParse "http://%41/" }}', '{{ urlParse "http://%C3%A9/" }}', '{{ urlParse "http://h%25/" }}',
    '{{ urlParse "http://[fe80::1%25en0]:8080/" }}', '{{ urlParse "http://[fe80::1%25%41]/" }}', '{{ urlParse "http://h:/" }}', '{{ urlParse "http://:80/" }}',
    '{{ urlParse "http://u:p:q@h/" }}', '{{ urlParse "http://u%2fx:p%40@h/" }}', '{{ urlParse "http://u^@h/" }}', '{{ urlParse "git@github.com:org/repo.git" }}',
    '{{ urlParse "ssh://git@github.com/org/repo.git" }}', '{{ urlParse "file:///etc/hosts" }}', '{{ urlParse "http:/p" }}', '{{ urlParse "s3+x.y-z:thing" }}',
    '{{ urlJoin (dict "scheme" "https" "host" "h:1" "path" "/a b" "query" "x=1" "fragment" "f g" "userinfo" "u:p w") }}', '{{ urlJoin (dict "path" "a:b") }}',
    '{{ urlJoin (dict "scheme" "mailto" "opaque" "x@y") }}', '{{ urlJoin (dict "host" "h" "path" "p") }}', '{{ urlJoin (dict "scheme" 1) }}', '{{ urlJoin (dict) }}',
    '{{ urlJoin (urlParse "https://u:p@h.com:1/x%2Fy?q#f") }}', '{{ urlJoin (dict "userinfo" "a@b") }}', '{{ urlJoin (dict "host" "é[]") }}', '{{ urlJoin (urlParse .server) }}',
    '{{ urlJoin (dict "scheme" "https" "host" "h" "path" "/a?b!c(d)*e;f,g=h@i" "fragment" "!x(y)*z?/#") }}', '{{ urlJoin (dict "scheme" "https" "userinfo" "u:p" "path" "x") }}',
    '{{ urlJoin (dict "userinfo" "%zz") }}', '{{ urlJoin (dict "userinfo" "u" "host" "h") }}', '{{ urlJoin (dict "path" "*") }}', '{{ urlJoin (dict "scheme" "s" "path" "/p") }}',
    '{{ urlJoin (dict "host" nil) }}', '{{ urlJoin (dict "query" (list 1)) }}', '{{ urlJoin .metadata }}', '{{ urlJoin (dict "path" "é ~x") }}',
]


def oracle(binary, spec):
    out = subprocess.run([binary], input=json.dumps(spec).encode(), capture_output=True, check=True).stdout
    return json.loads(out)


def main():
    binary = sys.argv[1]
    zero = [t for t in GO if ".nope" in t or ".values.none" in t or "index" in t]
    runs = [(True, [], PARAMS, GO), (True, ["missingkey=error"], PARAMS, GO), (True, ["missingkey=zero"], PARAMS, zero),
            (True, ["missingkey=error", "missingkey=default"], PARAMS[:1], GO[:20]), (False, [], FLAT, FLAT_T)]
    for go, options, params, templates in runs:
        rows = oracle(binary, {"params": params, "templates": templates, "goTemplate": go, "options": options, "json": True})
        for p, row in zip(params, rows):
            for t, answer in zip(templates, row):
                print(json.dumps({"goTemplate": go, "options": options, "params": p, "template": t, "answer": answer}, sort_keys=True))


main()
