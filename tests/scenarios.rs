//! One insta snapshot per scenario under `testdata/`: the whole rendered tree (sorted paths and
//! contents) and every warning, or the errors of a rejected input. A scenario is a directory
//! with `input/` and, optionally, `clusters.yaml`; adding one needs no Rust code.
//!
//! Every scenario also states what must come out in its `expect.yaml`, reasoned from its inputs
//! and the reference semantics rather than taken from the snapshot, so a changed snapshot is
//! checked against a stated expectation and not against memory:
//!
//! ```yaml
//! objects:                                  # exactly the objects rendered, per cluster
//!   Deployment/shop/web: {member1: 3, member2: 1}     # spec.replicas on each cluster
//!   Job/shop/migrate: {member1: {spec.parallelism: 2}}  # other fields, by dotted path
//!   ConfigMap/shop/env: {member1: {/metadata/labels/example.com~1tier: gold, data.x: ~}}
//!                                           # a JSON pointer for keys with dots; ~ is absent
//!   ConfigMap/shop/settings: [member1, member2]       # present; no field checked
//!   Namespace/shop: [member1, member2]                # cluster-scoped: Kind/name
//! warnings:                                 # optional: exactly the warnings, a fragment each
//! - 'cluster "prod-eu2" is not in the inventory'
//! errors:                                   # a rejected scenario: exactly its errors
//! - {file: input/web.yaml, line: 12, message: unknown field `replicaSchedulling`}
//! ```
//!
//! A scenario renders its FederatedHPAs at an end of their bounds with a file `at-replicas`
//! (`min` or `max`), and its CronFederatedHPAs at a moment with a file `at` (RFC 3339), as
//! `build --at-replicas` and `--at` do.
//!
//! An error's `line` is left out only where it is disputed; the file then says why. So is an
//! object listed under `disputed:` (name: what the reasoning expects instead), which the check
//! neither requires nor forbids.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use fedrender::source::fleet::{FleetSource, Inventory, run_fleet};
use fedrender_engine::lint::LintLevels;
use fedrender_engine::run::{EnvelopeEnd, Moment, Options, Outcome, RenderedFleet, parse_time};
use serde_json::Value;

fn scenarios() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("testdata")
        .expect("testdata exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("input").is_dir())
        .collect();
    dirs.sort();
    dirs
}

pub fn source_for(dir: &Path) -> FleetSource {
    let clusters = dir.join("clusters.yaml");
    let inventory = if clusters.exists() {
        Inventory::File(clusters)
    } else {
        Inventory::InputOnly
    };
    FleetSource::new(dir.join("input"), inventory)
}

fn render(dir: &Path) -> Outcome<RenderedFleet> {
    let lints = if dir.join("strict").exists() {
        LintLevels::strict()
    } else {
        LintLevels::default()
    };
    let options = Options {
        lints,
        moment: moment_of(dir),
        ..Options::default()
    };
    run_fleet(&source_for(dir), &options, |run| run.tree())
}

/// The moment a scenario renders its autoscalers at, as `build --at-replicas` and `--at`
/// take it: a file `at-replicas` holding `min` or `max`, a file `at` holding the time.
fn moment_of(dir: &Path) -> Moment {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .ok()
            .map(|text| text.trim().to_string())
    };
    Moment {
        end: read("at-replicas").map(|end| match end.as_str() {
            "min" => EnvelopeEnd::Min,
            "max" => EnvelopeEnd::Max,
            other => panic!(
                "{}/at-replicas: {other:?} is neither min nor max",
                dir.display()
            ),
        }),
        at: read("at").map(|time| parse_time(&time).unwrap()),
    }
}

fn describe(outcome: &Outcome<RenderedFleet>) -> String {
    let mut text = String::new();
    for warning in &outcome.warnings {
        writeln!(text, "{warning}").unwrap();
    }
    match &outcome.result {
        Ok(rendered) => {
            let tree = &rendered.tree;
            writeln!(
                text,
                "== {} clusters, {} object files",
                tree.clusters.len(),
                rendered.object_count()
            )
            .unwrap();
            for (path, file) in &tree.files {
                let contents = &file.text;
                writeln!(text, "\n--- {path}\n{contents}").unwrap();
            }
        }
        Err(rejected) => {
            writeln!(text, "== rejected (exit 2)\n{rejected}").unwrap();
        }
    }
    text
}

/// A scenario's `expect.yaml`, read as fedrender reads YAML.
fn expectation(dir: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join("expect.yaml")).ok()?;
    let documents = fedrender_engine::yaml::split_documents(&text);
    assert_eq!(documents.len(), 1, "{}/expect.yaml", dir.display());
    Some(fedrender_engine::yaml::parse_document(&documents[0], "expect.yaml").unwrap())
}

/// `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object.
fn object_name(object: &Value) -> String {
    let field = |value: &Value| value.as_str().unwrap_or_default().to_string();
    let (kind, metadata) = (field(&object["kind"]), &object["metadata"]);
    match field(&metadata["namespace"]) {
        namespace if namespace.is_empty() => format!("{kind}/{}", field(&metadata["name"])),
        namespace => format!("{kind}/{namespace}/{}", field(&metadata["name"])),
    }
}

/// The value at a dotted path (`spec.replicas`, `spec.template.spec.containers.0.image`) or, for
/// keys holding dots, a JSON pointer (`/metadata/labels/example.com~1tier`).
fn field_at<'v>(object: &'v Value, path: &str) -> Option<&'v Value> {
    if path.starts_with('/') {
        return object.pointer(path);
    }
    path.split('.').try_fold(object, |value, key| match value {
        Value::Array(items) => items.get(key.parse::<usize>().ok()?),
        _ => value.get(key),
    })
}

/// Each fragment matches one message of its own, and every message is matched.
fn match_messages(what: &str, fragments: &[Value], messages: &[String]) -> Vec<String> {
    let mut unmatched: Vec<&String> = messages.iter().collect();
    let mut problems = Vec::new();
    for fragment in fragments {
        let fragment = fragment.as_str().unwrap();
        match unmatched
            .iter()
            .position(|message| message.contains(fragment))
        {
            Some(index) => {
                unmatched.remove(index);
            }
            None => problems.push(format!("no {what} says {fragment:?}")),
        }
    }
    problems.extend(
        unmatched
            .into_iter()
            .map(|message| format!("an unexpected {what}: {message}")),
    );
    problems
}

/// How the outcome differs from what the scenario's `expect.yaml` states; empty when it agrees.
fn check(expected: &Value, outcome: &Outcome<RenderedFleet>) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(fragments) = expected.get("warnings") {
        let warnings: Vec<String> = outcome.warnings.iter().map(ToString::to_string).collect();
        problems.extend(match_messages(
            "warning",
            fragments.as_array().unwrap(),
            &warnings,
        ));
    }
    match (&outcome.result, expected.get("errors")) {
        (Err(rejected), Some(errors)) => {
            let errors = errors.as_array().unwrap();
            if errors.len() != rejected.errors.len() {
                problems.push(format!(
                    "{} errors, {} expected",
                    rejected.errors.len(),
                    errors.len()
                ));
            }
            let mut unmatched: Vec<_> = rejected.errors.iter().collect();
            for error in errors {
                let (file, line) = (error["file"].as_str().unwrap(), error["line"].as_u64());
                let message = error["message"].as_str().unwrap();
                let found = unmatched.iter().position(|diagnostic| {
                    let origin = diagnostic.origin.as_ref();
                    origin.is_some_and(|origin| {
                        origin.file.ends_with(&format!("/{file}"))
                            && line.is_none_or(|line| origin.line == line)
                    }) && diagnostic.to_string().contains(message)
                });
                match found {
                    Some(index) => {
                        unmatched.remove(index);
                    }
                    None => problems.push(format!("no error at {file}:{line:?} says {message:?}")),
                }
            }
            for diagnostic in unmatched {
                problems.push(format!("an unexpected error: {diagnostic}"));
            }
        }
        (Err(rejected), None) => {
            problems.push(format!("rejected, expected to render:\n{rejected}"))
        }
        (Ok(_), Some(_)) => problems.push("rendered, expected to be rejected".to_string()),
        (Ok(rendered), None) => {
            let Some(objects) = expected.get("objects").and_then(Value::as_object) else {
                return vec![
                    "expect.yaml states no `objects` (write `objects: {}` for none)".into(),
                ];
            };
            // object -> cluster -> the rendered object
            let mut found: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
            for (path, _, text) in rendered.tree.objects() {
                let (cluster, _) = path.split_once('/').unwrap();
                for document in fedrender_engine::yaml::split_documents(text) {
                    let object = fedrender_engine::yaml::parse_document(&document, path).unwrap();
                    let previous = found
                        .entry(object_name(&object))
                        .or_default()
                        .insert(cluster.to_string(), object);
                    assert!(previous.is_none(), "{path}: two objects of one name");
                }
            }
            for (name, clusters) in objects {
                let rendered = found.remove(name).unwrap_or_default();
                let wanted: BTreeMap<String, Value> = match clusters {
                    Value::Array(list) => list
                        .iter()
                        .map(|cluster| (cluster.as_str().unwrap().to_string(), Value::Null))
                        .collect(),
                    Value::Object(map) => map.clone().into_iter().collect(),
                    other => panic!("{name}: expected a list or a map of clusters, not {other}"),
                };
                let (have, want): (Vec<&String>, Vec<&String>) =
                    (rendered.keys().collect(), wanted.keys().collect());
                if have != want {
                    problems.push(format!("{name} is on {have:?}, expected on {want:?}"));
                    continue;
                }
                for (cluster, fields) in &wanted {
                    let object = &rendered[cluster];
                    let fields: Vec<(String, &Value)> = match fields {
                        Value::Null => Vec::new(),
                        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
                        replicas => vec![("spec.replicas".to_string(), replicas)],
                    };
                    for (path, value) in fields {
                        let actual = field_at(object, &path);
                        // `~` (null) stands for a field that is absent (or null).
                        let absent = value.is_null() && actual.is_none_or(Value::is_null);
                        if actual != Some(value) && !absent {
                            problems.push(format!(
                                "{name} on {cluster}: {path} is {actual:?}, expected {value}"
                            ));
                        }
                    }
                }
            }
            // Objects whose outcome the reasoning and the snapshot disagree on: reported, and
            // neither required nor forbidden here.
            if let Some(disputed) = expected.get("disputed").and_then(Value::as_object) {
                for name in disputed.keys() {
                    found.remove(name);
                }
            }
            for (name, clusters) in found {
                let clusters: Vec<&String> = clusters.keys().collect();
                problems.push(format!("{name} is rendered on {clusters:?}, not expected"));
            }
        }
    }
    problems
}

#[test]
fn every_scenario_renders_as_snapshotted() {
    let dirs = scenarios();
    assert!(!dirs.is_empty());
    let mut failed = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(std::fs::canonicalize(&dir).unwrap());
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_description(format!("fedrender build {}", dir.display()));
        let description = describe(&render(&dir));
        // Check every scenario, then fail once, so one run shows every changed snapshot.
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            settings.bind(|| insta::assert_snapshot!(name.as_str(), description))
        }));
        if checked.is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "changed snapshots: {failed:?}");
}

/// Every scenario states what must come out (`expect.yaml`), and comes out so.
#[test]
fn every_scenario_comes_out_as_its_expectation_states() {
    let mut failed = Vec::new();
    for dir in scenarios() {
        let problems = match expectation(&dir) {
            None => vec!["no expect.yaml: state what must come out".to_string()],
            Some(expected) => check(&expected, &render(&dir)),
        };
        if !problems.is_empty() {
            failed.push(format!("{}:\n  {}", dir.display(), problems.join("\n  ")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Every lint is in the reference's table (docs/reference.md), with its summary, and some
/// scenario or transcript test shows it being produced.
#[test]
fn every_lint_is_documented_and_produced() {
    let readme = std::fs::read_to_string("docs/reference.md").unwrap();
    let mut produced = std::fs::read_to_string("tests/cli.rs").unwrap();
    // `diff`'s danger lints are produced by a diff of two fleets, not a scenario's render.
    produced.push_str(&std::fs::read_to_string("tests/diff_danger.rs").unwrap());
    produced.push_str(&std::fs::read_to_string("tests/diff_ignore.rs").unwrap());
    // The Config's review groups are judged against the inventory by every command.
    produced.push_str(&std::fs::read_to_string("tests/review_groups.rs").unwrap());
    // Two Argo CD Applications deploying one object to one cluster.
    produced.push_str(&std::fs::read_to_string("tests/argocd.rs").unwrap());
    for dir in scenarios() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path
                .extension()
                .is_some_and(|extension| extension == "snap")
            {
                produced.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    for lint in fedrender_engine::lint::Lint::ALL {
        let row = format!("| `{}` |", lint.name());
        let documented = readme.lines().find(|line| line.starts_with(&row));
        assert!(
            documented.is_some(),
            "docs/reference.md has no row for {lint}"
        );
        let summary = lint.summary().replace("targetCluster", "`targetCluster`");
        assert!(
            documented.is_some_and(|line| line.ends_with(&format!(" {summary} |"))
                || line.contains(&format!(" {summary} ("))),
            "docs/reference.md's row for {lint} does not say: {summary}"
        );
        assert!(
            produced.contains(&format!("[{}]", lint.name())),
            "no scenario snapshot or CLI test shows a {lint} warning"
        );
    }
}
