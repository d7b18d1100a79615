//! Bounded cost on hostile input: one line of input must not stall a render. Each parser is fed
//! text far larger than any real manifest holds and must answer correctly; and the work it does
//! is counted, not timed: the instructions it executes, counted by callgrind, may double when
//! the input doubles, where a quadratic parser's quadruple.

use std::process::Command;

use fedrender_engine::diagnostics::Diagnostic;
use fedrender_engine::documents::{Format, SourceFile, parse_files};
use fedrender_engine::lint::{Level, Lint};
use fedrender_engine::quantity::{Quantity, parse_quantity};
use fedrender_engine::{Inputs, Options};

use crate::tools;

const MILLION: usize = 1_000_000;
const NANOS_PER_UNIT: i128 = 1_000_000_000;

/// A hostile input's work at a size.
type Case = (&'static str, fn(usize));

/// The hostile inputs whose work must grow linearly, each a function of its size.
const CASES: [Case; 4] = [
    ("quantities", |size| {
        let _ = quantities(size);
    }),
    ("nesting", |size| {
        for (name, text) in nesting_cases(size) {
            parse_errors(name, text);
        }
    }),
    ("image references", |size| {
        for (image, _) in image_cases(size) {
            let _ = fedrender_engine::overrides::image::ImageReference::parse(&image);
        }
    }),
    ("pointers", |size| {
        let _ = pointers(size);
    }),
];

/// The instructions this test binary executes running `case` at `size` (callgrind's count,
/// the same on every run whatever the machine's load; rayon on one thread, so that no
/// worker's spinning is counted).
fn instructions(case: &str, size: usize) -> u64 {
    let out = std::env::temp_dir().join(format!(
        "fedrender-callgrind-{}-{}-{size}",
        std::process::id(),
        case.replace(' ', "-")
    ));
    let run = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "hostile_input::the_work_on_hostile_input_grows_linearly",
        ])
        .args(["--test-threads=1", "--quiet"])
        .env("HOSTILE_CASE", case)
        .env("HOSTILE_SIZE", size.to_string())
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{case} at {size}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let counts = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    counts
        .lines()
        .find_map(|line| line.strip_prefix("summary: "))
        .expect("callgrind writes a summary")
        .trim()
        .parse()
        .unwrap()
}

/// Each case at 0, n and 2n: what 2n costs beyond the empty case is at most 2.5 times what n
/// does (n log n gives about 2.1, n² gives 4). The bignum took 18 s for 300,000 digits.
///
/// Under callgrind, this same test runs one case at one size instead (`HOSTILE_CASE` and
/// `HOSTILE_SIZE` set by [`instructions`]), so that only that work is counted.
#[test]
fn the_work_on_hostile_input_grows_linearly() {
    if let Ok(case) = std::env::var("HOSTILE_CASE") {
        let size = std::env::var("HOSTILE_SIZE").unwrap().parse().unwrap();
        let (_, run) = CASES.iter().find(|(name, _)| *name == case).unwrap();
        run(size);
        return;
    }
    if !tools::require(&["valgrind"]) {
        return;
    }
    const N: usize = 50_000;
    for (case, _) in CASES {
        let base = instructions(case, 0);
        let once = instructions(case, N) - base;
        let twice = instructions(case, 2 * N) - base;
        assert!(
            twice * 2 <= once * 5,
            "{case}: {once} instructions at {N}, {twice} at twice that"
        );
    }
}

/// The quantities of [`million_digit_quantities_parse_correctly`], with `size` digits.
fn quantities(size: usize) -> [Result<Quantity, String>; 8] {
    let zeros = "0".repeat(size.saturating_sub(1));
    [
        // A million-digit integer: far too large, unless a binary suffix caps it.
        parse_quantity(&format!("1{zeros}")),
        parse_quantity(&format!("1{zeros}Ki")),
        // Leading zeros are not size.
        parse_quantity(&format!("{zeros}7")),
        // A million-digit fraction: its last digit rounds up to the next nano.
        parse_quantity(&format!("0.{zeros}1")),
        parse_quantity(&format!("1.{zeros}1Ki")),
        // The exponent moves the point back across all those digits.
        parse_quantity(&format!("1{zeros}e-{}", size.saturating_sub(10))),
        // A million-digit exponent: its value counts, not its length.
        parse_quantity(&format!("1e{zeros}3")),
        parse_quantity(&format!("1e{}", "9".repeat(size))),
    ]
}

/// The case: the former bignum took 18 s for 300,000 digits and minutes for a million.
#[test]
fn million_digit_quantities_parse_correctly() {
    let results = quantities(MILLION);
    let [
        too_large,
        capped,
        seven,
        one_nano,
        kibi_and_a_nano,
        moved_back,
        thousand,
        huge_exponent,
    ] = results;
    assert!(
        too_large
            .as_ref()
            .is_err_and(|error| error.contains("too large")),
        "{too_large:?}"
    );
    assert_eq!(
        capped,
        Ok(Quantity::from_nanos(i128::from(i64::MAX) * NANOS_PER_UNIT))
    );
    assert_eq!(seven, Ok(Quantity::from_units(7)));
    assert_eq!(one_nano, Ok(Quantity::from_nanos(1)));
    assert_eq!(
        kibi_and_a_nano,
        Ok(Quantity::from_nanos(1024 * NANOS_PER_UNIT + 1))
    );
    assert_eq!(moved_back, Ok(Quantity::from_units(1_000_000_000)));
    assert_eq!(thousand, Ok(Quantity::from_units(1_000)));
    assert!(
        huge_exponent
            .as_ref()
            .is_err_and(|error| error.contains("unknown suffix")),
        "an exponent beyond 32 bits is refused as before"
    );
}

/// The errors of parsing one file.
fn parse_errors(name: &str, text: String) -> Vec<Diagnostic> {
    let format = if name.ends_with(".json") {
        Format::Json
    } else {
        Format::Yaml
    };
    let file = SourceFile::new(name.into(), text, format);
    let (_, errors) = parse_files(&[file]);
    errors
}

/// The recorded case `id` of testdata/references/go-yaml/reading.jsonl: a text and what Go read
/// of it (`go`, here as kubectl reads a file: a list of documents) or its error (`go_error`).
/// testdata/references/README.md says where it came from and how to regenerate it.
fn go_reading(id: &str) -> (String, serde_json::Value) {
    let recorded = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/references/go-yaml/reading.jsonl"
    ));
    let case: serde_json::Value = recorded
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|case| case["id"] == id)
        .unwrap_or_else(|| panic!("no case {id:?} in go-yaml/reading.jsonl"));
    let text = case["yaml"].as_str().unwrap().to_string();
    let read = case.get("go").cloned().unwrap_or(serde_json::Value::Null);
    (text, read)
}

/// What kubectl reads, fedrender reads, to the same documents: a JSON file that starts with a
/// byte-order mark, and an object nested a hundred levels deep (in YAML blocks and in JSON),
/// which the API server takes. Go's readings are recorded. One level past fedrender's bound is
/// refused in words.
#[test]
fn a_byte_order_mark_and_a_hundred_levels_read_as_kubectl_reads_them() {
    let block = |levels: usize| {
        let mut text = String::from("kind: Widget\nspec:\n");
        for level in 1..levels {
            text.push_str(&format!("{}a{level}:\n", "  ".repeat(level)));
        }
        text.push_str(&format!("{}leaf\n", "  ".repeat(levels)));
        text
    };
    let json = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let bom = "a JSON file starting with a byte-order mark";
    for (id, name, built) in [
        (bom, "bom.json", None),
        (bom, "bom.yaml", None),
        (
            "YAML blocks a hundred levels deep",
            "hundred.yaml",
            Some(block(100)),
        ),
        (
            "JSON a hundred levels deep",
            "hundred.json",
            Some(json(100)),
        ),
    ] {
        let (text, go) = go_reading(id);
        match built {
            Some(built) => assert_eq!(text, built, "{name}"),
            None => assert!(text.starts_with('\u{feff}'), "{name}"),
        }
        let format = if name.ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        };
        let (documents, errors) = parse_files(&[SourceFile::new(name.into(), text, format)]);
        assert_eq!(errors, Vec::new(), "{name}");
        let values: Vec<serde_json::Value> = documents.into_iter().map(|d| d.value).collect();
        assert_eq!(serde_json::Value::from(values), go, "{name}");
    }
    let limit = fedrender_engine::yaml::MAX_NESTING_DEPTH;
    for (name, text) in [
        ("deep.yaml", block(limit + 1)),
        ("deep.json", json(limit + 1)),
    ] {
        let (_, message) = single_error(name, text);
        assert_eq!(
            message,
            format!("lists and maps nest deeper than {limit} levels"),
            "{name}"
        );
    }
}

/// The one error of a file, with its line.
fn single_error(name: &str, text: String) -> (u64, String) {
    let errors = parse_errors(name, text);
    assert_eq!(errors.len(), 1, "{name}: {errors:?}");
    let line = errors[0].origin.as_ref().map_or(0, |origin| origin.line);
    (line, errors[0].message.clone())
}

/// Nine anchors, each a list of nine aliases of the previous one: 9^9 strings if expanded.
#[test]
fn a_billion_laughs_document_fails_fast_at_its_line() {
    let mut text = String::from("kind: ConfigMap\nlol0: &lol0 [\"lol\"]\n");
    for level in 1..=9 {
        let aliases = vec![format!("*lol{}", level - 1); 9].join(", ");
        text.push_str(&format!("lol{level}: &lol{level} [{aliases}]\n"));
    }
    // Expanding it would take hours; the reader weighs what the aliases copy before anything is
    // expanded (a count, not a time), and serde-saphyr stops after a million recorded events:
    // the message is that count's verdict.
    let (line, message) = single_error("laughs.yaml", text);
    assert!(message.contains("billion laughs"), "{message}");
    assert!((3..=11).contains(&line), "line {line}: {message}");
}

/// Nesting far past the limit, in every YAML form and in JSON, is an error at the line where
/// it starts, not a stack overflow.
#[test]
fn nesting_a_hundred_thousand_deep_is_refused_at_its_line() {
    for (name, text) in nesting_cases(100_000) {
        let (line, message) = single_error(name, text);
        assert_eq!(line, 2, "{name}: {message}");
    }
}

/// Files nesting `deep` levels, in every YAML form and in JSON.
fn nesting_cases(deep: usize) -> [(&'static str, String); 5] {
    [
        (
            "flow-lists.yaml",
            format!("kind: A\ndata: {}", "[".repeat(deep)),
        ),
        (
            "flow-maps.yaml",
            format!("kind: A\ndata: {}", "{a: ".repeat(deep)),
        ),
        (
            "block-lists.yaml",
            format!("# lists\n{}x\n", "- ".repeat(deep)),
        ),
        ("lists.json", format!("\n{}", "[".repeat(deep))),
        ("maps.json", format!("\n{}", "{\"a\": ".repeat(deep))),
    ]
}

/// Reads and renders a fleet held in memory through the front door, every object built,
/// checked and dropped.
fn render_in_memory(input: &[(&str, String)], inventory: &str) -> Result<usize, String> {
    let files: Vec<SourceFile> = input
        .iter()
        .map(|(name, text)| {
            let format = if name.ends_with(".json") {
                Format::Json
            } else {
                Format::Yaml
            };
            SourceFile::new((*name).into(), text.clone(), format)
        })
        .collect();
    let mut inputs = Inputs::new("", files);
    inputs.inventory = Some(SourceFile::new(
        "clusters.yaml".into(),
        inventory.to_string(),
        Format::Yaml,
    ));
    // The depth of what an override writes is the point, not what the schema says of it (as
    // `--warn schema-invalid`).
    let mut options = Options::default();
    options.lints.named.insert(Lint::SchemaInvalid, Level::Warn);
    let outcome = fedrender_engine::run(inputs, &options, |run| {
        let mut objects = 0;
        run.render(64, |chunk| {
            objects += chunk.len();
            Ok(())
        })?;
        Ok(objects)
    });
    outcome.result.map_err(|error| error.to_string())
}

const ONE_CLUSTER: &str = "apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
spec:
  syncMode: Push
";

/// A plaintext overrider that adds a deep value under a deep value it added itself: were each
/// operation not held to the document's depth, a long enough chain of them would nest an
/// object deeply enough to overflow the stack of whatever walks it next.
#[test]
fn overrides_cannot_deepen_an_object_past_the_nesting_limit() {
    // The policy nests its values about ten levels down; the object gets 40 more from the
    // path, so the second value takes it past the limit.
    let limit = fedrender_engine::yaml::MAX_NESTING_DEPTH;
    let nested_value =
        |levels: usize, leaf: &str| format!("{}{leaf}{}", "[".repeat(levels), "]".repeat(levels));
    let deep_path = format!("/data/x{}", "/0".repeat(40));
    let policies = format!(
        "apiVersion: v1
kind: ConfigMap
metadata: {{name: deep, namespace: default}}
data: {{}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {{name: deep, namespace: default}}
spec:
  resourceSelectors: [{{apiVersion: v1, kind: ConfigMap}}]
  placement: {{clusterAffinity: {{clusterNames: [member1]}}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {{name: deep, namespace: default}}
spec:
  resourceSelectors: [{{apiVersion: v1, kind: ConfigMap}}]
  overrideRules:
  - targetCluster: {{clusterNames: [member1]}}
    overriders:
      plaintext:
      - {{path: /data/x, operator: add, value: {first}}}
      - {{path: \"{deep_path}\", operator: replace, value: {second}}}
",
        first = nested_value(limit - 56, "first"),
        second = nested_value(limit - 20, "second"),
    );
    let shallow = policies.replace(&nested_value(limit - 20, "second"), "second");
    assert_eq!(
        render_in_memory(&[("fleet.yaml", shallow)], ONE_CLUSTER),
        Ok(1)
    );
    let error = render_in_memory(&[("fleet.yaml", policies)], ONE_CLUSTER).unwrap_err();
    assert!(error.contains("levels of lists and maps"), "{error}");
}

/// Image references are split with a few scans of the text, never one per character.
#[test]
fn megabyte_image_references_are_judged_correctly() {
    use fedrender_engine::overrides::image::ImageReference;
    for (image, expected) in &image_cases(MILLION) {
        let parsed = ImageReference::parse(image);
        assert!(parsed == Err(*expected), "{}…: {expected:?}", &image[..40]);
    }
}

/// Image references of about `size` bytes, each with the error it gets.
fn image_cases(
    size: usize,
) -> [(
    String,
    fedrender_engine::overrides::image::InvalidImageReference,
); 7] {
    use fedrender_engine::overrides::image::InvalidImageReference;
    [
        (
            format!("{}b:v1", "a/".repeat(size / 2)),
            InvalidImageReference::NameTooLong,
        ),
        (
            format!("{}:{}", "a".repeat(size), "1".repeat(size)),
            InvalidImageReference::Format,
        ),
        (
            format!("nginx@sha256:{}", "a".repeat(size)),
            InvalidImageReference::DigestLength,
        ),
        (
            format!("registry.example/{}", "A".repeat(size)),
            InvalidImageReference::Uppercase,
        ),
        (
            format!("[{}/nginx", ":".repeat(size)),
            InvalidImageReference::Format,
        ),
        (
            format!("{}/nginx", "a.".repeat(size / 2)),
            InvalidImageReference::Format,
        ),
        (
            format!("nginx{}", "-".repeat(size)),
            InvalidImageReference::Format,
        ),
    ]
}

/// A pointer of a million tokens stops where the object does.
#[test]
fn million_token_pointers_stop_where_the_object_does() {
    let (field_error, sub_path_error) = pointers(MILLION);
    let field_error = field_error.unwrap_err();
    assert!(field_error.ends_with(": /data/data has no key \"data\""));
    let sub_path_error = sub_path_error.unwrap_err();
    let tail = &sub_path_error[sub_path_error.len().saturating_sub(100)..];
    assert!(tail.ends_with("/a/a is not an object or a list"), "…{tail}");
}

/// A fieldOverrider's path and a JSON patch's sub-path of `tokens` tokens, on an object two
/// levels deep: what each answers.
fn pointers(tokens: usize) -> (Result<(), String>, Result<(), String>) {
    use fedrender_engine::api::karmada::{FieldOverrider, OverriderOperator, PatchOperation};
    use fedrender_engine::overrides::field::apply_field_overrider;
    use serde_json::json;
    let mut object = json!({"data": {"data": {"config": "{\"a\": {\"a\": 1}}"}}});
    let deep_field = FieldOverrider {
        field_path: "/data".repeat(tokens),
        json: Vec::new(),
        yaml: Vec::new(),
    };
    let deep_sub_path = FieldOverrider {
        field_path: "/data/data/config".to_string(),
        json: vec![PatchOperation {
            sub_path: "/a".repeat(tokens),
            operator: OverriderOperator::Replace,
            value: Some(json!(2)),
        }],
        yaml: Vec::new(),
    };
    (
        apply_field_overrider(&mut object, &deep_field),
        apply_field_overrider(&mut object, &deep_sub_path),
    )
}

/// Objects at the deepest nesting the loader accepts, as YAML and as JSON, and YAML content
/// as deep in a string a fieldOverrider parses, go through every stage of a render, on rayon's
/// threads with the stacks workers get (`RUST_MIN_STACK`, as the binary's pool), even in a test
/// build.
#[test]
fn the_deepest_accepted_objects_render() {
    let limit = fedrender_engine::yaml::MAX_NESTING_DEPTH;
    // The object, `spec` and the list around `leaf` take three levels.
    let nested = |levels: usize| format!("{}\"leaf\"{}", "[".repeat(levels), "]".repeat(levels));
    let widget = |name: &str| {
        format!(
            "{{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": \
             {{\"name\": \"{name}\", \"namespace\": \"default\"}}, \"spec\": {{\"deep\": {}}}}}",
            nested(limit - 2)
        )
    };
    let deep_content = format!("{}leaf{}", "[".repeat(limit), "]".repeat(limit));
    let policies = format!(
        "apiVersion: v1
kind: ConfigMap
metadata: {{name: deep, namespace: default}}
data: {{config: '{deep_content}'}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {{name: everything, namespace: default}}
spec:
  resourceSelectors: [{{apiVersion: v1, kind: ConfigMap}}, {{apiVersion: example.com/v1, kind: Widget}}]
  placement: {{clusterAffinity: {{clusterNames: [member1]}}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {{name: deep, namespace: default}}
spec:
  resourceSelectors: [{{apiVersion: v1, kind: ConfigMap}}]
  overrideRules:
  - targetCluster: {{clusterNames: [member1]}}
    overriders:
      fieldOverrider:
      - fieldPath: /data/config
        yaml: [{{subPath: /0, operator: add, value: first}}]
"
    );
    let mut files = vec![
        ("policies.yaml", policies),
        ("widget.yaml", widget("yaml")),
        ("widget.json", widget("json")),
    ];
    let rendered = render_in_memory(&files, ONE_CLUSTER);
    assert_eq!(rendered, Ok(3));
    files.push((
        "too-deep.yaml",
        widget("deeper").replace("\"leaf\"", "[\"leaf\"]"),
    ));
    let error = render_in_memory(&files, ONE_CLUSTER).unwrap_err();
    assert!(
        error.contains(&format!("deeper than {limit} levels")),
        "{error}"
    );
}
