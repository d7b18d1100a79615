//! Rules of the text/template package documentation and Argo CD's utils_test.go, one by one.

use super::*;
use serde_json::json;

fn run(text: &str, data: serde_json::Value) -> String {
    match render(text, &data, GoOptions::default()) {
        Ok(out) => out,
        Err(GoError::Parse(e) | GoError::Execute(e)) => format!("ERR {e}"),
    }
}

fn strict(text: &str, data: serde_json::Value) -> String {
    match render(
        text,
        &data,
        GoOptions {
            missing_key_error: true,
            missing_key_zero: false,
        },
    ) {
        Ok(out) => out,
        Err(GoError::Parse(e) | GoError::Execute(e)) => format!("ERR {e}"),
    }
}

// text/template doc "Actions", "Arguments" and "Pipelines"; argo-cd utils_test.go
// TestRenderTemplateParamsGoTemplate ("simple substitution", "nested", "map", "index",
// "missing key" rows).
#[test]
fn fields_pipelines_and_missing_keys() {
    let data = json!({"name": "in-cluster", "metadata": {"labels": {"env": "prod"}}, "n": 1000000, "f": 1.5, "i": 3});
    assert_eq!(
        run("{{.name}}-{{ .metadata.labels.env | upper }}", data.clone()),
        "in-cluster-PROD"
    );
    assert_eq!(
        run("{{ .n }} {{ .f }} {{ .i }}", data.clone()),
        "1e+06 1.5 3"
    );
    assert_eq!(
        run("{{ .missing }}|{{ .missing.deeper }}", data.clone()),
        "<no value>|<no value>"
    );
    assert_eq!(
        strict("{{.x}}", data.clone()),
        r#"ERR template: base:1:2: executing "base" at <.x>: map has no entry for key "x""#
    );
    assert_eq!(
        run(r#"{{ index .metadata.labels "env" }}"#, data.clone()),
        "prod"
    );
    assert_eq!(
        run("{{ upper .n }}", data.clone()),
        r#"ERR template: base:1:9: executing "base" at <.n>: wrong type for value; expected string; got float64"#
    );
    assert_eq!(
        run("{{ eq .i 3 }}", data),
        r#"ERR template: base:1:3: executing "base" at <eq .i 3>: error calling eq: incompatible types for comparison: float64 and int"#
    );
}

// text/template doc "Actions": if/else if/with/range with $i, $v, break and continue, and the
// empty values (false, 0, nil, empty collections) that are false.
#[test]
fn control_structures() {
    let data = json!({"list": ["a", "b", "c"], "map": {"y": 2, "x": 1}, "empty": [], "t": true});
    assert_eq!(
        run(
            "{{range $i, $v := .list}}{{$i}}={{$v}};{{end}}",
            data.clone()
        ),
        "0=a;1=b;2=c;"
    );
    assert_eq!(
        run("{{range $k, $v := .map}}{{$k}}{{$v}}{{end}}", data.clone()),
        "x1y2"
    );
    assert_eq!(
        run("{{range .empty}}x{{else}}none{{end}}", data.clone()),
        "none"
    );
    assert_eq!(
        run(
            r#"{{range .list}}{{if eq . "b"}}{{break}}{{end}}{{.}}{{end}}"#,
            data.clone()
        ),
        "a"
    );
    assert_eq!(
        run(
            r#"{{range .list}}{{if eq . "b"}}{{continue}}{{end}}{{.}}{{end}}"#,
            data.clone()
        ),
        "ac"
    );
    assert_eq!(
        run("{{if .nope}}1{{else if .t}}2{{else}}3{{end}}", data.clone()),
        "2"
    );
    assert_eq!(
        run(
            "{{with .map}}{{.x}}{{end}}{{with .nope}}x{{else}}y{{end}}",
            data.clone()
        ),
        "1y"
    );
    assert_eq!(run("{{ range 3 }}{{.}}{{end}}", data.clone()), "012");
    assert_eq!(
        run("a  {{- 1 -}}  b {{/* gone */}}c", data.clone()),
        "a1b c"
    );
    assert_eq!(
        run(
            r#"{{define "t"}}[{{.}}]{{end}}{{template "t" .t}}{{block "b" 2}}<{{.}}>{{end}}"#,
            data
        ),
        "[true]<2>"
    );
}

// text/template doc "Variables": declaration, assignment in a range, scope to the end of the
// control structure.
#[test]
fn variables() {
    let data = json!({"list": [1, 2]});
    assert_eq!(
        run(
            "{{$x := 1}}{{range .list}}{{$x = .}}{{end}}{{$x}}",
            data.clone()
        ),
        "2"
    );
    assert_eq!(run("{{$}}", json!({"a": "b"})), "map[a:b]");
    assert_eq!(
        run("{{if true}}{{$y := 1}}{{end}}{{$y}}", data),
        r#"ERR template: base:1: undefined variable "$y""#
    );
}

// text/template doc "Functions": and, or, not, len, index, slice, print, printf, println,
// html, js, urlquery, and the comparisons.
#[test]
fn builtin_functions() {
    let data = json!({"s": "héllo", "l": [1, 2, 3], "z": 0});
    assert_eq!(
        run(
            "{{ and 1 0 2 }} {{ or 0 \"\" 3 }} {{ not .z }}",
            data.clone()
        ),
        "0 3 true"
    );
    assert_eq!(
        run(
            "{{ len .s }} {{ len .l }} {{ index .l 1 }} {{ slice .l 1 }}",
            data.clone()
        ),
        "6 3 2 [2 3]"
    );
    assert_eq!(
        run(
            r#"{{ printf "%s-%05.1f-%v" "a" 3.14159 .l }}"#,
            data.clone()
        ),
        "a-003.1-[1 2 3]"
    );
    assert_eq!(
        run(r#"{{ print 1 2 "a" }}{{ println "x" }}"#, data.clone()),
        "1 2ax\n"
    );
    assert_eq!(
        run(
            r#"{{ html "<a&b>" }} {{ urlquery "a b&c" }} {{ js "a'b" }}"#,
            data.clone()
        ),
        r"&lt;a&amp;b&gt; a+b%26c a\'b"
    );
    assert_eq!(
        run(
            "{{ lt 1 2 }} {{ ge 2.5 2.5 }} {{ ne \"a\" \"b\" }} {{ eq 1 2 1 }}",
            data.clone()
        ),
        "true true true true"
    );
    assert_eq!(
        run("{{ index .l 5 }}", data),
        r#"ERR template: base:1:3: executing "base" at <index .l 5>: error calling index: index out of range: 5"#
    );
}

// Argo CD removes env, expandenv and getHostByName; an unknown function does not parse.
#[test]
fn functions_argo_cd_removes_are_not_defined() {
    for name in ["env", "expandenv", "getHostByName", "nope"] {
        assert_eq!(
            run(&format!("{{{{ {name} }}}}"), json!({})),
            format!(r#"ERR template: base:1: function "{name}" not defined"#)
        );
    }
}

// sprig's documentation, function by function.
#[test]
fn sprig_functions() {
    let data = json!({"name": "My App", "list": ["b", "a", "b"], "m": {"a": 1}, "n": 7});
    let cases = [
        (r#"{{ .name | lower | replace " " "-" }}"#, "my-app"),
        (
            r#"{{ title "hello world" }} {{ trimPrefix "a" "abc" }} {{ trimSuffix "c" "abc" }}"#,
            "Hello World bc ab",
        ),
        (
            r#"{{ contains "App" .name }} {{ hasPrefix "My" .name }} {{ hasSuffix "x" .name }}"#,
            "true true false",
        ),
        (
            r#"{{ quote "a" 1 }} {{ squote "b" }} {{ cat "a" 1 nil "b" }}"#,
            r#""a" "1" 'b' a 1 b"#,
        ),
        (
            r#"{{ "a\nb" | indent 2 }}|{{ "x" | nindent 1 }}"#,
            "  a\n  b|\n x",
        ),
        (
            r#"{{ substr 1 3 "hello" }} {{ trunc 3 "hello" }} {{ trunc -2 "hello" }} {{ repeat 2 "ab" }}"#,
            "el hel lo abab",
        ),
        (
            r#"{{ (split "," "a,b")._1 }} {{ splitList "," "a,b" }} {{ join "-" .list }} {{ sortAlpha .list }}"#,
            "b [a b] b-a-b [a b b]",
        ),
        (
            r#"{{ default "d" .missing }} {{ default "d" "" }} {{ default "d" "g" }} {{ empty 0 }} {{ coalesce "" 0 "c" }} {{ ternary "y" "n" true }}"#,
            "d d g true c y",
        ),
        (
            r#"{{ list 1 "a" }} {{ first .list }} {{ last .list }} {{ rest .list }} {{ initial .list }}"#,
            "[1 a] b b [a b] [b a]",
        ),
        (
            r#"{{ append .list "c" }} {{ prepend .list "z" }} {{ uniq .list }} {{ has "a" .list }} {{ without .list "b" }} {{ compact (list "" 1 0 "x") }}"#,
            "[b a b c] [z b a b] [b a] true [a] [1 x]",
        ),
        (
            r#"{{ $d := dict "k" "v" "n" 1 }}{{ get $d "k" }} {{ hasKey $d "n" }} {{ $_ := set $d "z" 2 }}{{ keys $d | sortAlpha }} {{ $_ := unset $d "k" }}{{ $d }}"#,
            "v true [k n z] map[n:1 z:2]",
        ),
        (
            r#"{{ pluck "a" .m (dict "a" 2) }} {{ merge (dict "a" "" "b" 2) .m (dict "c" 3) }}"#,
            "[1 2] map[a:1 b:2 c:3]",
        ),
        (
            r#"{{ toString 1.5 }} {{ toJson .m }} {{ atoi "42" }} {{ int "0x10" }} {{ int64 3.9 }} {{ float64 "2.5" }}"#,
            r#"1.5 {"a":1} 42 16 3 2.5"#,
        ),
        (
            r#"{{ regexMatch "^a.c$" "abc" }} {{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }} {{ regexFind "[0-9]+" "ab12cd" }}"#,
            "true -W-xxW- 12",
        ),
        (
            r#"{{ b64enc "hello" }} {{ b64dec "aGVsbG8=" }} {{ sha256sum "abc" | trunc 8 }}"#,
            "aGVsbG8= hello ba7816bf",
        ),
        (
            r#"{{ add 1 2 .n }} {{ sub 5 2 }} {{ mul 2 3 }} {{ div 7 2 }} {{ mod 7 2 }} {{ max 1 9 3 }} {{ min 4 2 }}"#,
            "10 3 6 3 1 9 2",
        ),
        (
            r#"{{ normalize "My_App" }} {{ slugify "Hello World" }} {{ toYaml .m }} {{ (fromYaml "a: 1").a }} {{ fromYamlArray "[1, x]" }}"#,
            "my-app hello-world a: 1 1 [1 x]",
        ),
    ];
    for (template, expected) in cases {
        assert_eq!(run(template, data.clone()), expected, "{template}");
    }
}

// Go's conversions on amd64 (the spec's "Conversions between numeric types": out of range is
// implementation-defined; amd64 gives the integer indefinite) and encoding/json's -0.
#[test]
fn out_of_range_floats_and_negative_zero() {
    let data = json!({"big": 1e21, "z": -0.0});
    assert_eq!(
        run(
            "{{ int .big }} {{ int64 .big }} {{ add 1 .big }}",
            data.clone()
        ),
        "-9223372036854775808 -9223372036854775808 -9223372036854775807"
    );
    assert_eq!(run("{{ toJson .z }} {{ toYaml .z }}", data), "-0 0");
}

// text/template exec.go maxExecDepth: a template that calls itself forever stops with an error
// (Go allows 100000 levels; a Rust stack holds fewer, so here 1000).
#[test]
fn endless_recursion_stops() {
    let out = run(
        r#"{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}"#,
        json!({}),
    );
    assert_eq!(
        out,
        r#"ERR template: base:1:25: executing "r" at <{{template "r" .}}>: exceeded maximum template depth (1000)"#
    );
}

// text/template option.go: missingkey=invalid/default, zero, error; anything else is refused.
#[test]
fn go_template_options() {
    let parse = |o: &[&str]| GoOptions::parse(&o.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(
        parse(&["missingkey=error", "missingkey=default"]),
        Ok(GoOptions::default())
    );
    assert_eq!(
        parse(&["missingkey=nope"]),
        Err("unrecognized option: missingkey=nope".to_string())
    );
    assert_eq!(parse(&[""]), Err("empty option string".to_string()));
    let zero = GoOptions {
        missing_key_error: false,
        missing_key_zero: true,
    };
    let out = |t: &str| match render(t, &json!({}), zero) {
        Ok(out) => out,
        Err(GoError::Parse(e) | GoError::Execute(e)) => e,
    };
    assert_eq!(out("{{ .a }}"), "<no value>");
    assert_eq!(
        out("{{ .a.b }}"),
        r#"template: base:1:5: executing "base" at <.a.b>: nil pointer evaluating interface {}.b"#
    );
}

// sprig's path functions in a template; a sprig function fedrender lacks is refused as its
// gap, not as the "not defined" Argo CD would never say of it.
#[test]
fn sprig_paths_render_and_a_sprig_function_fedrender_lacks_is_named_as_its_gap() {
    assert_eq!(
        run(
            r#"{{ base .p }} {{ dir .p }} {{ ext .p }} {{ clean "a//b/../c" }} {{ isAbs .p }}"#,
            json!({"p": "/apps/web/values.yaml"})
        ),
        "values.yaml /apps/web .yaml a/c true"
    );
    assert_eq!(
        run("{{ derivePassword 1 \"a\" \"b\" \"c\" \"d\" }}", json!({})),
        r#"ERR template: base:1: function "derivePassword" is sprig's, which Argo CD's templates have and fedrender does not implement yet"#
    );
    // One whose answer is the clock's or chance's is refused for that reason, not as a gap.
    assert_eq!(
        run("{{ .name }}-{{ randAlphaNum 5 }}", json!({"name": "web"})),
        r#"ERR template: base:1: function "randAlphaNum" is sprig's, and its answer changes each time Argo CD renders the template: fedrender cannot say what it would be"#
    );
}

// sprig functions.go: `hello`, `all`, `any`, `plural`, `splitn` (strings.SplitN), `untitle`
// (goutils Uncapitalize), the synonyms `tuple`, `biggest` and `trimall`, and the `must` list
// functions, which return the error their namesakes panic with; the answers are Argo CD's
// (testdata/references/argocd-templates).
#[test]
fn sprig_synonyms_must_list_functions_and_small_string_functions() {
    assert_eq!(
        run(
            r#"{{ hello }} {{ all 1 "a" true }} {{ all 1 "" }} {{ any 0 "" nil }} {{ any 0 "x" }} {{ all }} {{ any }}"#,
            json!({})
        ),
        "Hello! true false false true true false"
    );
    assert_eq!(
        run(
            r#"{{ plural "app" "apps" 1 }} {{ plural "app" "apps" 2 }} {{ untitle "Hello World  FOO" }}"#,
            json!({})
        ),
        "app apps hello world  fOO"
    );
    assert_eq!(
        run(
            r#"{{ $p := splitn "." 2 "a.b.c" }}{{ $p._0 }} {{ $p._1 }} {{ splitn "." 0 "a.b" | len }} {{ splitn "" 2 "abc" }} {{ splitn "." -1 "a.b.c" }}"#,
            json!({})
        ),
        "a b.c 0 map[_0:a _1:bc] map[_0:a _1:b _2:c]"
    );
    assert_eq!(
        run(
            r#"{{ tuple 1 "a" }} {{ biggest 1 5 3 }} {{ trimall "-" "--a--" }}"#,
            json!({})
        ),
        "[1 a] 5 a"
    );
    assert_eq!(
        run(
            r#"{{ mustFirst (list 1 2) }} {{ mustLast (list 1 2) }} {{ mustRest (list 1 2 3) }} {{ mustInitial (list 1 2 3) }} {{ mustAppend (list 1) 2 }} {{ mustPush (list 1) 2 }} {{ mustPrepend (list 1) 0 }} {{ mustReverse (list 1 2) }} {{ mustUniq (list 1 1 2) }} {{ mustWithout (list 1 2 3) 2 }} {{ mustHas 2 (list 1 2) }} {{ mustCompact (list 1 "" 2) }} {{ mustSlice (list 1 2 3) 1 2 }}"#,
            json!({})
        ),
        "1 2 [2 3] [1 2] [1 2] [1 2] [0 1] [2 1] [1 2] [1 3] true [1 2] [2]"
    );
    assert_eq!(
        run(r#"{{ mustFirst "x" }}"#, json!({})),
        r#"ERR template: base:1:3: executing "base" at <mustFirst "x">: error calling mustFirst: Cannot find first on type string"#
    );
}

// DESIGN.md, what a repository can make fedrender do: a template cannot take the job's memory
// or time, though Argo CD's text/template and sprig would go on; the refusal names the call.
#[test]
fn a_template_that_would_build_or_work_without_bound_is_stopped_at_the_call_that_would() {
    let refused = |text: &str| {
        let answer = run(text, json!({}));
        assert!(
            answer.starts_with("ERR ") && answer.contains("fedrender's bound"),
            "{text}: {answer}"
        );
        answer
    };
    assert_eq!(
        refused("{{ len (until 3000000000) }}"),
        r#"ERR template: base:1:8: executing "base" at <until 3000000000>: error calling until: it would build 3000000000 items or bytes, past fedrender's bound of 4194304 on what one template builds (a pull request may not exhaust the job)"#
    );
    refused("{{ untilStep 0 9000000000 1 }}");
    refused("{{ repeat 100000 (repeat 100000 \"x\") }}");
    refused("{{ indent 100000000 \"a\" }}");
    refused("{{ replace \"\" (repeat 4000 \"y\") (repeat 4000 \"x\") }}");
    refused("{{ regexReplaceAll \"\" (repeat 4000 \"x\") (repeat 4000 \"y\") }}");
    refused("{{ regexReplaceAllLiteral \"x\" (repeat 4000 \"x\") (repeat 4000 \"y\") }}");
    refused("{{ range 5000000 }}{{ end }}");
    refused("{{ range until 3000 }}{{ range until 3000 }}{{ end }}{{ end }}");
    refused("{{ $l := list 1 }}{{ range until 40 }}{{ $l = concat $l $l }}{{ end }}");
    // Within the bound, as Argo CD renders them.
    assert_eq!(
        run("{{ len (until 100000) }} {{ repeat 3 \"ab\" }}", json!({})),
        "100000 ababab"
    );
    assert_eq!(
        run(
            "{{ regexReplaceAll \"a(x*)b\" \"-ab-axxb-\" \"${1}W\" }}",
            json!({})
        ),
        "-W-xxW-"
    );
    // fmt's own bound: a width past a million takes the rest of the format with it.
    assert_eq!(
        run("{{ printf \"%99999999d|%d\" 1 2 }}", json!({})),
        "%!(NOVERB)%!(EXTRA int=1, int=2)"
    );
    assert_eq!(
        run("{{ printf \"%*d\" 2000000 1 }}", json!({})),
        "%!(BADWIDTH)1"
    );
}

// A loop over a long constraint is stopped by fedrender's bound on a template's work, as
// each semverCompare reads its constraint whole.
#[test]
fn semver_calls_are_charged_for_the_text_they_read() {
    let out = run(
        r#"{{ $c := repeat 1000000 ">=1 " }}{{ range until 100 }}{{ semverCompare $c "1" }}{{ end }}"#,
        json!({}),
    );
    assert!(out.contains("fedrender's bound"), "{out}");
    assert_eq!(
        run(r#"{{ semverCompare (repeat 100 ">=1 ") "1" }}"#, json!({})),
        "true"
    );
}
