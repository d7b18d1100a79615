//! Replays what Argo CD's own template code answered (testdata/references/argocd-templates:
//! the oracle's answers, with their provenance) against [`super::replace`], output and
//! message alike.

use serde_json::Value;

/// A YAML text `fromYaml` cannot read fails in both, but the words after `error converting YAML
/// to JSON:` are the engine's YAML reader's, not go-yaml's.
const YAML_SYNTAX: &str = "error converting YAML to JSON: ";

/// Answers not matched yet, each with its reason; every one must still be in the recording.
const NOT_YET: &[(&str, &str)] = &[
    (
        "{{ 1i }}",
        "complex constants (an imaginary literal prints as (0+1i)) are not implemented",
    ),
    (
        "{{ (toDate \"2006\" \"2024\").Format \"2006\" }}",
        "time.Time's methods that take arguments are refused: sprig's date does what Format does",
    ),
    (
        "{{ (toDate \"2006\" \"2024\").Month }}",
        "time.Time's Month and Weekday return types of their own (time.Month, time.Weekday), \
         not implemented; they are refused",
    ),
];

const ANSWERS: &str =
    include_str!("../../../../testdata/references/argocd-templates/answers.jsonl");

#[test]
fn every_recorded_answer_of_argo_cd_is_ours() {
    let mut mismatches = Vec::new();
    let mut count = 0;
    let mut not_yet_seen = 0;
    for line in ANSWERS.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON line");
        let params = case["params"].as_object().expect("params").clone();
        let template = case["template"].as_str().expect("template");
        let go = case["goTemplate"].as_bool().unwrap_or(false);
        let options: Vec<String> = case["options"]
            .as_array()
            .map(|o| {
                o.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let ours = match super::replace(template, &params, go, &options) {
            Ok(out) => serde_json::json!({ "ok": out }),
            Err(error) => serde_json::json!({ "err": error.to_string() }),
        };
        count += 1;
        if NOT_YET.iter().any(|(t, _)| *t == template) {
            not_yet_seen += 1;
            continue;
        }
        let agree = match (ours["err"].as_str(), case["answer"]["err"].as_str()) {
            (Some(ours), Some(argo))
                if argo.contains(YAML_SYNTAX) && !argo.contains("cannot unmarshal") =>
            {
                ours.split(YAML_SYNTAX).next() == argo.split(YAML_SYNTAX).next()
                    && ours.contains(YAML_SYNTAX)
            }
            _ => ours == case["answer"],
        };
        if !agree {
            mismatches.push(format!(
                "{template:?} (goTemplate {go}, {options:?})\n   argo: {}\n   ours: {ours}",
                case["answer"]
            ));
        }
    }
    assert!(count > 300, "the recorded answers are there");
    assert!(
        not_yet_seen >= NOT_YET.len(),
        "each case not matched yet is still recorded"
    );
    assert!(
        mismatches.is_empty(),
        "{} of {count} differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
