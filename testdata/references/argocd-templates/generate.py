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

T = '(toDate "2006-01-02 15:04:05" "2024-02-03 04:05:06")'
BIG = "2006-01-02T15:04:05Z07:00|MST|Mon Monday|Jan January|1 01|2 _2 02|__2 002|3 03 15|4 04|5 05|PM pm|06|-0700 -07:00 -07 -070000 -07:00:00|Z0700 Z07:00 Z07 Z070000 Z07:00:00|.000 .999 ,000000000 .9|Month Mond"
GO += [
    # sprig's date functions: Go's layouts both ways, zones, durations (never now or ago, which read the clock).
    "{{ toDate \"2006-01-02\" \"2024-02-03\" }}|{{ toDate \"2006-01-02T15:04:05Z07:00\" \"2024-02-03T04:05:06Z\" }}|{{ toDate \"2006-01-02T15:04:05Z07:00\" \"2024-02-03T04:05:06.123456789+05:30\" }}",
    "{{ toDate \"Jan _2 15:04:05 2006\" \"Feb  3 04:05:06 2024\" }}|{{ toDate \"Mon Jan _2 15:04:05 MST 2006\" \"Sat Feb  3 04:05:06 EST 2024\" }}|{{ toDate \"02 Jan 06 15:04 -0700\" \"03 Feb 24 04:05 -0800\" }}",
    "{{ toDate \"Monday, 02-Jan-06 15:04:05 MST\" \"saturday, 03-FEB-24 04:05:06 GMT+3\" }}|{{ toDate \"3:04PM\" \"11:30PM\" }}|{{ toDate \"3:04pm\" \"12:30am\" }}|{{ toDate \"03:04:05 PM\" \"12:00:00 PM\" }}|{{ toDate \"3PM\" \"11pm\" }}",
    "{{ toDate \"2006-002\" \"2024-060\" }}|{{ toDate \"2006 __2\" \"2023  45\" }}|{{ toDate \"2006-01-02 002\" \"2024-03-01 061\" }}|{{ toDate \"__2 2006\" \"366 2024\" }}|{{ toDate \"002\" \"059\" }}",
    "{{ toDate \"2006-01-02 15:04:05.000\" \"2024-02-03 04:05:06.789\" }}|{{ toDate \"2006-01-02 15:04:05,999\" \"2024-02-03 04:05:06,7\" }}|{{ toDate \"15:04:05\" \"04:05:06.123456789123\" }}|{{ toDate \"15:04:05\" \"04:05:06,5\" }}|{{ toDate \"15:04:05.999\" \"04:05:06\" }}",
    "{{ toDate \"2006-01-02 -07:00:00\" \"2024-02-03 +05:30:15\" }}|{{ toDate \"2006-01-02 Z070000\" \"2024-02-03 -013000\" }}|{{ toDate \"2006-01-02 -07\" \"2024-02-03 +09\" }}|{{ toDate \"2006-01-02 Z07\" \"2024-02-03 Z\" }}|{{ toDate \"2006-01-02 -0700\" \"2024-02-03 +0000\" }}",
    "{{ toDate \"2006-01-02 MST\" \"2024-02-03 ChST\" }}|{{ toDate \"2006-01-02 MST\" \"2024-02-03 +03\" }}|{{ toDate \"2006-01-02 MST\" \"2024-02-03 UTC\" }}|{{ toDate \"2006-01-02 MST\" \"2024-02-03 GMT\" }}|{{ toDate \"2006-01-02 MST\" \"2024-02-03 WITA\" }}|{{ toDate \"2006-01-02 MST\" \"2024-02-03 CEST\" }}|{{ toDate \"2006-01-02 MST -0700\" \"2024-02-03 PST -0800\" }}",
    "{{ toDate \"January 2, 2006\" \"february 29, 2024\" }}|{{ toDate \"Jan 2 06\" \"Dec 31 68\" }}|{{ toDate \"Jan 2 06\" \"Jan 1 69\" }}|{{ toDate \"_2006\" \"_2024\" }}|{{ toDate \"2006\" \"0000\" }}|{{ toDate \"15:04\" \"10:30\" }}|{{ toDate \"Jan 2006\" \"jan 2024\" }}",
    "{{ toDate \"2006-01-02\" \"x\" }}|{{ toDate \"2006\" .name }}|{{ toDate .name .name }}|{{ toDate \"\" \"\" }}|{{ toDate \"Month 2006\" \"Month 2024\" }}|{{ toDate \"Mon, 2006\" \"Fri, 2024\" }}",
    "{{ mustToDate \"2006-01-02\" \"x\" }}", "{{ mustToDate \"2006-01-02\" \"2024-02-30\" }}", "{{ mustToDate \"2006-01-02\" \"2024-13-01\" }}", "{{ mustToDate \"15:04\" \"25:00\" }}",
    "{{ mustToDate \"15:04\" \"10:61\" }}", "{{ mustToDate \"15:04:05\" \"10:00:60\" }}", "{{ mustToDate \"2006-01-02\" \"2024-02-03 extra\" }}", "{{ mustToDate \"2006-002\" \"2023-366\" }}",
    "{{ mustToDate \"2006-01-02 002\" \"2024-02-03 100\" }}", "{{ mustToDate \"2006-01-02 002\" \"2024-04-03 100\" }}", "{{ mustToDate \"Mon 2006\" \"Foo 2024\" }}", "{{ mustToDate \"2006 -0700\" \"2024 +2500\" }}",
    "{{ mustToDate \"2006 -07:00\" \"2024 +01:61\" }}", "{{ mustToDate \"2006 -0700\" \"2024 *0100\" }}", "{{ mustToDate \"2006 MST\" \"2024 abc\" }}", "{{ mustToDate \"2006-01-02 15:04:05.000\" \"2024-02-03 04:05:06.7\" }}",
    "{{ mustToDate \"2006 PM\" \"2024 XM\" }}", "{{ mustToDate \"2006-01-02\" \"2024-2-03\" }}", "{{ mustToDate \"2006-01-02\" \"é\\t\\\"\" }}", "{{ mustToDate \"2006 002\" \"2024 000\" }}",
    "{{ mustToDate \"Jan  2\" \"Jan2\" }}", "{{ mustToDate \"2006-01-02\" \"\" }}", "{{ mustToDate \"06\" \"6\" }}", "{{ mustToDate \"2006\" \"-123\" }}", "{{ mustToDate \"15:04:05.000\" \"10:00:00.-12\" }}",
    "{{ mustToDate \"2006-01-02T15:04:05Z07:00\" \"2024-02-03T04:05:06+24:00\" }}", "{{ mustToDate \"2006-01-02T15:04:05Z07:00\" \"2024-02-03 04:05:06Z\" }}", "{{ mustToDate \"Jan 2 2006\" \"Feb 30 2023\" }}",
    "{{ date \"" + BIG + "\" (int64 1700000000) }}", "{{ date \"" + BIG + "\" 0 }}", "{{ date \"" + BIG + "\" (toDate \"2006-01-02T15:04:05.999999999Z07:00\" \"2024-02-29T23:59:59.000012+05:45\") }}",
    "{{ dateInZone \"" + BIG + "\" (int64 1700000000) \"America/New_York\" }}", "{{ dateInZone \"" + BIG + "\" (int64 1720000000) \"America/New_York\" }}", "{{ dateInZone \"" + BIG + "\" (int64 1700000000) \"Asia/Kolkata\" }}",
    "{{ dateInZone \"" + BIG + "\" (int64 1700000000) \"Australia/Lord_Howe\" }}", "{{ dateInZone \"" + BIG + "\" 1720000000 \"America/Sao_Paulo\" }}", "{{ dateInZone \"" + BIG + "\" (int 1720000000) \"Europe/London\" }}",
    "{{ dateInZone \"2006-01-02 15:04 MST\" 0 \"UTC\" }}|{{ dateInZone \"2006-01-02 15:04 MST\" 0 \"Nope/Zone\" }}|{{ dateInZone \"2006-01-02 15:04 MST\" 0 \"\" }}|{{ dateInZone \"2006-01-02 15:04 MST\" 0 \"Local\" }}|{{ dateInZone \"15:04 MST\" 0 \"america/new_york\" }}|{{ dateInZone \"15:04 MST\" 0 .name }}",
    "{{ date_in_zone \"15:04 MST\" 0 \"Etc/GMT+5\" }}|{{ dateInZone \"15:04 MST\" 0 \"EST5EDT\" }}|{{ dateInZone \"15:04 MST\" 0 \"../etc\" }}|{{ dateInZone \"15:04 MST\" 0 \"/UTC\" }}|{{ dateInZone \"15:04 MST -07:00\" 0 \"Asia/Kathmandu\" }}|{{ dateInZone \"15:04 MST\" 0 \"US/Pacific\" }}|{{ dateInZone \"15:04 MST\" 0 \"Etc/UTC\" }}",
    "{{ dateInZone \"2006-01-02 15:04:05 MST -0700\" (toDate \"2006-01-02 15:04\" \"2024-03-10 06:59\") \"America/New_York\" }}|{{ dateInZone \"2006-01-02 15:04:05 MST -0700\" (toDate \"2006-01-02 15:04\" \"2024-03-10 07:00\") \"America/New_York\" }}|{{ dateInZone \"2006-01-02 15:04:05 MST\" (toDate \"2006-01-02 15:04\" \"2024-11-03 05:59\") \"America/New_York\" }}|{{ dateInZone \"2006-01-02 15:04:05 MST\" (toDate \"2006-01-02 15:04\" \"2024-11-03 06:00\") \"America/New_York\" }}",
    "{{ dateInZone \"2006-01-02 15:04 MST\" (toDate \"2006-01-02\" \"1900-01-01\") \"Asia/Kolkata\" }}|{{ dateInZone \"2006-01-02 15:04 MST\" (toDate \"2006-01-02\" \"2100-07-01\") \"America/New_York\" }}|{{ dateInZone \"2006-01-02 15:04 MST\" (toDate \"2006-01-02\" \"1883-11-18\") \"America/New_York\" }}",
    "{{ date \"2006-01-02 15:04:05 Mon\" (int64 -62135596801) }}|{{ date \"2006-01-02 15:04:05\" (int64 253402300800) }}|{{ date \"2006-01-02 15:04:05 06\" (int64 -100000000000) }}|{{ date \"2006-01-02 15:04:05 002\" (int64 9223372036854775807) }}|{{ date \"2006-01-02 15:04:05 Mon\" (int64 -9223372036854775808) }}",
    "{{ htmlDate 0 }}|{{ htmlDate " + T + " }}|{{ htmlDateInZone 0 \"Asia/Tokyo\" }}|{{ htmlDateInZone (int64 1700000000) \"Pacific/Kiritimati\" }}|{{ date \"2006\" (int 5) }}|{{ date \"\" 0 }}|{{ date \"x\" " + T + " }}",
    "{{ duration \"3600\" }}|{{ duration \"90\" }}|{{ duration \"0\" }}|{{ duration \"-1\" }}|{{ duration 60 }}|{{ duration (int64 5400) }}|{{ duration \"x\" }}|{{ duration \"99999999999\" }}|{{ duration \"9223372036854775807\" }}|{{ duration \"+7\" }}|{{ duration \"1_000\" }}|{{ duration .values.replicas }}|{{ duration \"-99999999999999999999\" }}|{{ duration (int64 9223372036) }}",
    "{{ durationRound \"2h10m\" }}|{{ durationRound \"-3h\" }}|{{ durationRound \"1.5s\" }}|{{ durationRound \"1s\" }}|{{ durationRound \"61s\" }}|{{ durationRound \"9000h\" }}|{{ durationRound \"26h\" }}|{{ durationRound \"750h\" }}|{{ durationRound \"8761h\" }}|{{ durationRound \"24h\" }}",
    "{{ durationRound (int64 100000000000) }}|{{ durationRound \"x\" }}|{{ durationRound 5 }}|{{ durationRound .name }}|{{ durationRound .values.ratio }}|{{ durationRound nil }}|{{ durationRound \"-2562047h47m16.854775808s\" }}|{{ durationRound (int64 -9223372036854775808) }}",
    "{{ dateModify \"1h\" " + T + " }}|{{ dateModify \"-1.5h\" " + T + " }}|{{ dateModify \"x\" " + T + " }}|{{ date_modify \"90m\" " + T + " }}|{{ dateModify \"2h45m30.5s\" " + T + " }}|{{ dateModify \"1us\" " + T + " }}|{{ dateModify \"1µs\" " + T + " }}|{{ dateModify \"1μs\" " + T + " }}|{{ dateModify \"300ms\" " + T + " }}|{{ dateModify \"-1ns\" " + T + " }}",
    "{{ dateModify \".5h\" " + T + " }}|{{ dateModify \"1.h\" " + T + " }}|{{ dateModify \"+0\" " + T + " }}|{{ dateModify \"1.0000000000000000000001h\" " + T + " }}|{{ dateModify \"2562047h\" " + T + " }}|{{ mustDateModify \"-2562047h\" " + T + " }}|{{ dateModify \"1h\" (dateModify \"1h\" (toDate \"2006 MST\" \"2024 PST\")) }}",
    "{{ mustDateModify \"x\" " + T + " }}", "{{ mustDateModify \"\" " + T + " }}", "{{ mustDateModify \"1\" " + T + " }}", "{{ mustDateModify \"1d\" " + T + " }}", "{{ mustDateModify \".s\" " + T + " }}",
    "{{ mustDateModify \"-\" " + T + " }}", "{{ mustDateModify \"9999999999h\" " + T + " }}", "{{ must_date_modify \"1h 2m\" " + T + " }}", "{{ mustDateModify \"9223372036854775808ns\" " + T + " }}",
    "{{ mustDateModify \"99999999999999999999ns\" " + T + " }}", "{{ mustDateModify \"1é\" " + T + " }}", "{{ mustDateModify \"5124095576030431h\" " + T + " }}", "{{ mustDateModify \"-9223372036854775808ns\" " + T + " }}",
    "{{ unixEpoch " + T + " }}|{{ unixEpoch (toDate \"2006\" \"x\") }}|{{ unixEpoch (dateModify \"-1ns\" (toDate \"2006\" \"1970\")) }}|{{ unixEpoch (toDate \"2006 -0700\" \"2024 -0700\") }}",
    "{{ typeOf " + T + " }} {{ kindOf " + T + " }} {{ printf \"%T|%v|%s|%q|%x|%X|%30v|%-30s|\" " + T + " " + T + " " + T + " " + T + " " + T + " " + T + " " + T + " " + T + " }}",
    "{{ toJson " + T + " }} {{ toJson (list " + T + " (toDate \"2006-01-02T15:04:05.999Z07:00\" \"2024-02-03T04:05:06.5-03:00\")) }} {{ toPrettyJson (dict \"t\" " + T + ") }} {{ toRawJson (toDate \"15:04 MST\" \"10:00 EST\") }}",
    "{{ toYaml " + T + " }}|{{ toYaml (dict \"t\" " + T + ") }}|{{ list " + T + " 1 }}|{{ dict \"t\" " + T + " }}|{{ toString " + T + " }}|{{ cat " + T + " \"x\" }}|{{ print " + T + " 1 }}|{{ quote " + T + " }}",
    "{{ eq " + T + " " + T + " }}|{{ eq (toDate \"2006\" \"2024\") (toDate \"2006 Z07\" \"2024 Z\") }}|{{ eq (toDate \"2006 -07\" \"2024 +03\") (toDate \"2006 -07\" \"2024 +03\") }}|{{ eq (toDate \"2006 MST\" \"2024 PST\") (toDate \"2006 MST\" \"2024 PST\") }}|{{ eq (toDate \"2006\" \"x\") (toDate \"2006 Z07\" \"0001 Z\") }}|{{ ne " + T + " (dateModify \"1s\" " + T + ") }}",
    "{{ empty " + T + " }}|{{ if " + T + " }}t{{ end }}|{{ default \"d\" (toDate \"2006\" \"x\") }}|{{ deepEqual " + T + " " + T + " }}|{{ deepEqual " + T + " (dateModify \"1s\" " + T + ") }}|{{ and " + T + " 1 }}|{{ not " + T + " }}|{{ $t := " + T + " }}{{ $t }}",
    "{{ dateModify \"1h\" .name }}", "{{ dateModify \"1h\" nil }}", "{{ dateModify \"1h\" .nope }}", "{{ dateModify \"1h\" \"x\" }}", "{{ unixEpoch 3 }}", "{{ dateModify \"1h\" .values.none }}", "{{ unixEpoch true }}",
    "{{ eq " + T + " 1 }}", "{{ lt " + T + " " + T + " }}", "{{ len " + T + " }}", "{{ index " + T + " 0 }}", "{{ first " + T + " }}", "{{ range " + T + " }}{{ end }}", "{{ " + T + ".Nope }}", "{{ dateInZone \"2006\" 0 3 }}",
    "{{ toDate \"2006-01-02\" }}", "{{ date \"2006\" }}", "{{ toDate 1 \"2024\" }}",
    # time.Time's methods without arguments, as text/template calls them for a field.
    "{{ $t := toDate \"2006-01-02 15:04:05.000 -0700\" \"2024-02-03 04:05:06.789 -0800\" }}{{ $t.Year }} {{ $t.YearDay }} {{ $t.Day }} {{ $t.Hour }} {{ $t.Minute }} {{ $t.Second }} {{ $t.Nanosecond }} {{ $t.Unix }} {{ $t.UnixMilli }} {{ $t.UnixMicro }} {{ $t.UnixNano }} {{ $t.IsZero }} {{ $t.UTC }} {{ $t.Local }} {{ $t.String }}",
    "{{ (toDate \"2006\" \"x\").IsZero }} {{ (toDate \"2006\" \"x\").UnixNano }} {{ typeOf (toDate \"2006\" \"x\").Unix }} {{ typeOf (toDate \"2006\" \"x\").Year }} {{ eq " + T + ".UTC " + T + " }} {{ eq " + T + ".Local " + T + " }} {{ (dateModify \"-1ns\" (toDate \"2006\" \"1970\")).UnixMilli }}",
    "{{ (toDate \"2006\" \"2024\").Year 1 }}", "{{ $t := toDate \"2006\" \"2024\" }}{{ $t.Year 1 2 }}", "{{ (toDate \"2006\" \"2024\").wall }}", "{{ (toDate \"2006\" \"2024\").Year.X }}",
    # Zones by their names, old and new, from 1811 to 2100 (the zones tzdata has since made links, such
    # as EST and CET, and Morocco's far future, differ between tzdata releases and are left out).
    *["{{ dateInZone \"2006-01-02 15:04 MST -07:00\" 0 \"%s\" }}|{{ dateInZone \"MST -07:00\" (int64 1704067200) \"%s\" }}|{{ dateInZone \"MST -07:00\" (int64 1719792000) \"%s\" }}|"
      "{{ dateInZone \"MST -07:00\" (int64 4102444800) \"%s\" }}|{{ dateInZone \"2006 MST -07:00\" (int64 -5000000000) \"%s\" }}" % ((z,) * 5) for z in [
        "EST5EDT", "CST6CDT", "US/Eastern", "US/Pacific", "GB", "Asia/Calcutta", "Etc/GMT-14", "Etc/GMT+12", "America/Argentina/Buenos_Aires",
        "Factory", "posix/Europe/Paris", "Europe/Kyiv", "Europe/Kiev", "Asia/Kathmandu", "Australia/Adelaide", "Pacific/Chatham", "America/St_Johns",
        "Asia/Tehran", "America/Caracas", "Pacific/Apia", "Antarctica/Troll", "Europe/Dublin", "Asia/Shanghai", "Europe/Moscow", "America/Havana",
        "Etc/UTC", "Zulu", "GMT", "Universal", "Etc/Unknown", "utc", "Europe/Paris ", "America/New_York/"]],
    "{{ printf \"%#v|%#v|%#v|%#v|%+v|%50v|%-50v|\" (toDate \"2006-01-02 15:04:05.000\" \"2024-02-03 04:05:06.789\") (toDate \"2006 Z07\" \"2024 Z\") (toDate \"2006 -07\" \"2024 -07\") (toDate \"2006 MST\" \"2024 PST\") " + T + " " + T + " " + T + " }}",
    "{{ printf \"%#v\" (toDate \"2006\" \"-001\") }}|{{ printf \"%#v|%#v\" (dateModify \"-8760h\" (toDate \"2006\" \"0000\")) (dateModify \"0s\" (toDate \"2006 MST\" \"2024 GMT-11\")) }}",
    "{{ 1 | (toDate \"2006\" \"2024\").Year }}", "{{ (toDate \"2006\" \"2024\").Format \"2006\" }}", "{{ (toDate \"2006\" \"2024\").Month }}",
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
