//! The differential against cel-judge, replayed: each case recorded under
//! testdata/references/cel-judge/ (a random CRD, an object, maybe an old object, and what the
//! API server's own code said of them at Kubernetes 1.30, 1.33 and 1.36) is run through the
//! [`Checker`] and the verdicts compared — the CRD's (refused at creation or not) and the
//! object's (refused or not). Where they still differ, docs/differences.md lists the case with
//! the reason; the replay fails when a listed difference goes away or changes, or a new one
//! appears, so that list stays the truth.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::{Checker, KubernetesVersion};
use crate::diagnostics::Origin;
use crate::lint::Level;

/// The recorded CRDs, cases and known differences, built into the test (the engine reads no
/// file).
const CRDS: [&str; 2] = [
    include_str!("../../../testdata/references/cel-judge/crds.jsonl"),
    include_str!("../../../testdata/references/cel-judge/crds-48.jsonl"),
];
const CASES: [&str; 2] = [
    include_str!("../../../testdata/references/cel-judge/cases.jsonl"),
    include_str!("../../../testdata/references/cel-judge/cases-48.jsonl"),
];
const DIFFERENCES: &str = include_str!("../../../docs/differences.md");

/// How fedrender's verdict on a case differs from the judge's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Difference {
    /// The API server refuses the CRD at creation; fedrender takes it.
    CrdAccepted,
    /// fedrender refuses a CRD the API server creates.
    CrdRefused,
    /// The API server refuses the object; fedrender finds nothing wrong.
    ObjectAccepted,
    /// fedrender refuses an object the API server takes.
    ObjectRefused,
}

impl Difference {
    fn name(self) -> &'static str {
        match self {
            Difference::CrdAccepted => "crd-accepted",
            Difference::CrdRefused => "crd-refused",
            Difference::ObjectAccepted => "object-accepted",
            Difference::ObjectRefused => "object-refused",
        }
    }

    fn parse(name: &str) -> Option<Difference> {
        [
            Difference::CrdAccepted,
            Difference::CrdRefused,
            Difference::ObjectAccepted,
            Difference::ObjectRefused,
        ]
        .into_iter()
        .find(|difference| difference.name() == name)
    }
}

/// Each recorded case at each version where fedrender and the judge differ, by
/// `case@version`, with fedrender's findings for the message.
fn differences() -> (BTreeMap<String, (Difference, String)>, usize) {
    let crds: HashMap<String, Value> = CRDS
        .iter()
        .flat_map(|crds| crds.lines())
        .map(|line| {
            let mut entry: Value = serde_json::from_str(line).expect("a CRD line");
            let id = entry["id"].as_str().expect("an id").to_string();
            (id, entry["crd"].take())
        })
        .collect();
    let cases = CASES;
    let origin = Origin::new("crd.yaml", 0, 1);
    let mut checkers: HashMap<String, Result<Checker, String>> = HashMap::new();
    let mut found = BTreeMap::new();
    let mut compared = 0;
    for line in cases.iter().flat_map(|cases| cases.lines()) {
        let case: Value = serde_json::from_str(line).expect("a case line");
        let id = case["id"].as_str().expect("an id");
        let crd_id = case["crd"].as_str().expect("a CRD id");
        let crd = &crds[crd_id];
        let checker = checkers.entry(crd_id.to_string()).or_insert_with(|| {
            Checker::with_crds(Vec::new(), [(crd, &origin)], [])
                .map(|(checker, _)| checker)
                .map_err(|errors| {
                    errors
                        .iter()
                        .map(|error| error.message.clone())
                        .collect::<Vec<_>>()
                        .join("; ")
                })
        });
        for (version, judged) in case["judge"].as_object().expect("verdicts") {
            compared += 1;
            let key = format!("{id}@{version}");
            // A CRD the API server cannot decode (a keyword of the wrong JSON type) is refused
            // as surely as one it decodes and refuses.
            let judge_refuses_crd = judged["crd_errors"]
                .as_array()
                .is_some_and(|errors| !errors.is_empty())
                || judged["skipped"]
                    .as_str()
                    .is_some_and(|why| why.starts_with("CRD does not decode"));
            let minor: u32 = version
                .strip_prefix("1.")
                .and_then(|minor| minor.parse().ok())
                .expect("a version 1.N");
            // A fleet's CRD is created: refused by what that version's API server checks of a
            // new CRD (crd_creation::creation_refusals), or by what building the checker finds.
            let refused_at_creation =
                !super::crd_creation::creation_refusals(crd, minor).is_empty();
            let checker = match (checker.as_ref(), judge_refuses_crd) {
                (Ok(_), true) if refused_at_creation => continue,
                (Ok(_), false) if refused_at_creation => {
                    found.insert(key, (Difference::CrdRefused, String::new()));
                    continue;
                }
                (Err(_), false) => {
                    found.insert(key, (Difference::CrdRefused, String::new()));
                    continue;
                }
                (Err(_), true) => continue,
                (Ok(_), true) => {
                    found.insert(key, (Difference::CrdAccepted, String::new()));
                    continue;
                }
                (Ok(checker), false) => checker,
            };
            if judged.get("skipped").is_some() {
                continue;
            }
            let version = KubernetesVersion { minor };
            let mut findings: Vec<String> = Vec::new();
            let mut refuses = false;
            // With an old object the case is an update, judged as the API server judges one.
            let judged_by_fedrender = match case.get("old") {
                Some(old) => checker.check_change_at(old, &case["object"], version),
                None => checker.check_at(&case["object"], version),
            };
            for finding in judged_by_fedrender {
                if finding.lint.default_level() == Level::Deny {
                    refuses = true;
                    findings.push(format!("{}: {}", finding.path, finding.problem));
                }
            }
            let judge_refuses = ["errors", "cel_errors"].iter().any(|list| {
                judged[*list]
                    .as_array()
                    .is_some_and(|errors| !errors.is_empty())
            });
            match (judge_refuses, refuses) {
                (true, false) => {
                    found.insert(key, (Difference::ObjectAccepted, String::new()));
                }
                (false, true) => {
                    found.insert(key, (Difference::ObjectRefused, findings.join("; ")));
                }
                _ => {}
            }
        }
    }
    (found, compared)
}

/// The known differences docs/differences.md lists, between its markers: one line a case,
/// `- case@version kind: reason`.
fn known() -> BTreeMap<String, Difference> {
    let text = DIFFERENCES;
    let begin = "<!-- cel-judge differences: begin -->";
    let end = "<!-- cel-judge differences: end -->";
    let start = text.find(begin).expect("the begin marker") + begin.len();
    let stop = text.find(end).expect("the end marker");
    text[start..stop]
        .lines()
        .filter_map(|line| line.trim().strip_prefix("- `"))
        .map(|line| {
            let (key, rest) = line.split_once("` ").expect("`case@version` kind: reason");
            let kind = rest.split(':').next().expect("a kind").trim();
            let kind = Difference::parse(kind).unwrap_or_else(|| panic!("unknown kind {kind}"));
            (key.to_string(), kind)
        })
        .collect()
}

/// Every recorded case at every version agrees with the judge, or is listed with its reason.
#[test]
fn fedrender_agrees_with_the_api_server_on_every_recorded_case_or_lists_why_not() {
    let (found, compared) = differences();
    assert!(compared > 3000, "{compared} verdicts compared");
    let known = known();
    let mut unexpected = Vec::new();
    for (key, (difference, findings)) in &found {
        if known.get(key) != Some(difference) {
            unexpected.push(format!("- `{key}` {}: {findings}", difference.name()));
        }
    }
    let gone: Vec<&String> = known
        .keys()
        .filter(|key| !found.contains_key(*key))
        .collect();
    assert!(
        unexpected.is_empty() && gone.is_empty(),
        "{} new or changed differences:\n{}\n{} listed differences no longer differ: {gone:?}",
        unexpected.len(),
        unexpected.join("\n"),
        gone.len()
    );
}
