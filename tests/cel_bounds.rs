//! The CEL attacks of issue 47, each a CRD and a custom resource in a fleet a pull request
//! could bring, run through the real binary: each ends bounded — refused as the API server
//! refuses it (its per-call cost limit, its per-object budget) or checked — never hung, never
//! killed for memory. Times and peak memory are measured in the closing note, not here.
//!
//! Each CRD is one the clusters already hold (`--crds`): the same CRD in the fleet is refused
//! at creation by its estimated cost (`a_fleet_crd_that_costs_this_much_is_refused_at_creation`),
//! so the evaluation's bounds matter for the CRDs a run trusts.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::ONE_CLUSTER_INVENTORY;
use crate::common::{empty_scratch, fedrender_in, stderr};

const PLACE_WIDGETS: &str = "\
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: widgets}
spec:
  resourceSelectors:
  - {apiVersion: example.io/v1, kind: Widget}
  placement:
    clusterAffinity: {clusterNames: [member1]}
";

/// A Widget CRD whose `spec` has a string `s`, a list of strings `l`, a list of integers `n`
/// and a string `p`, and the CEL rule `rule` (a YAML string, quoted by the caller) on `spec`,
/// with `extra` (more YAML keys of the rule, one per line) besides.
fn crd(rule: &str, extra: &[&str]) -> String {
    let mut validation = format!("            - rule: {rule}\n");
    for line in extra {
        validation.push_str(&format!("              {line}\n"));
    }
    format!(
        "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.io}}
spec:
  group: example.io
  scope: Namespaced
  names: {{kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              s: {{type: string}}
              p: {{type: string}}
              l: {{type: array, items: {{type: string}}}}
              numbers: {{type: array, items: {{type: integer}}}}
            x-kubernetes-validations:
{validation}"
    )
}

/// A Widget named `name` with `spec` (JSON, which YAML reads).
fn widget(name: &str, spec: &serde_json::Value) -> String {
    format!(
        "apiVersion: example.io/v1\nkind: Widget\nmetadata: {{name: {name}, namespace: default}}\n\
         spec: {spec}\n"
    )
}

fn repository(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = empty_scratch(&format!("cel-bounds-{name}"));
    std::fs::create_dir_all(root.join(".git")).unwrap();
    for (path, text) in [
        ("fleet/clusters.yaml", ONE_CLUSTER_INVENTORY),
        ("fleet/policy.yaml", PLACE_WIDGETS),
    ]
    .iter()
    .chain(files)
    {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

fn validate(root: &Path) -> Output {
    fedrender_in(
        root,
        &[
            "validate",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--crds",
            "crds/crd.yaml",
        ],
    )
}

/// The per-call limit's refusal, as the API server words it (validation.go).
const CALL_LIMIT: &str = "'operation cancelled: actual cost limit exceeded': no further \
                          validation rules will be run due to call cost exceeds limit for rule: ";

/// Runs `rule` on one Widget of `spec` and returns the exit status and messages.
fn judged(
    name: &str,
    rule: &str,
    extra: &[&str],
    spec: serde_json::Value,
) -> (Option<i32>, String) {
    let root = repository(
        name,
        &[
            ("crds/crd.yaml", &crd(rule, extra)),
            ("fleet/widget.yaml", &widget("w", &spec)),
        ],
    );
    let output = validate(&root);
    let error = stderr(&output);
    (output.status.code(), error)
}

/// `replace('', s)` on 30 KB would build 900 MB (it took 1.7 GB): refused by its cost before
/// it is built.
#[test]
fn a_replace_that_multiplies_a_string_is_refused_by_its_cost() {
    let (status, error) = judged(
        "replace",
        "\"self.s.replace('', self.s).size() > 0\"",
        &[],
        serde_json::json!({"s": "x".repeat(30_000)}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&format!(
            "{CALL_LIMIT}self.s.replace('', self.s).size() > 0"
        )),
        "{error}"
    );
}

/// `map(x, self.s)` over a 1 MB string (it peaked at 3.2 GB): the items share the object's
/// string, and the rule is checked.
#[test]
fn a_map_over_a_long_string_is_checked_without_copying_it() {
    let (status, error) = judged(
        "map",
        "\"self.l.map(x, self.s).all(y, y.size() > 0)\"",
        &[],
        serde_json::json!({"s": "x".repeat(1 << 20), "l": vec!["a"; 20_000]}),
    );
    assert_eq!(status, Some(0), "{error}");
}

/// `all(x, size(self.s) > 0)` on a 2.6 MB object (it ran past 40 s): checked.
#[test]
fn size_of_a_long_string_in_a_loop_is_checked() {
    let (status, error) = judged(
        "size",
        "\"self.l.all(x, size(self.s) > 0)\"",
        &[],
        serde_json::json!({"s": "é".repeat(1_000_000), "l": vec!["a"; 60_000]}),
    );
    assert_eq!(status, Some(0), "{error}");
}

/// `join` and `format` of many copies of a string are charged by what they would build.
#[test]
fn a_join_of_many_copies_is_refused_by_its_cost() {
    let (status, error) = judged(
        "join",
        "\"self.l.map(x, self.s).join('') != ''\"",
        &[],
        serde_json::json!({"s": "x".repeat(30_000), "l": vec!["a"; 1000]}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&format!("{CALL_LIMIT}self.l.map(x, self.s).join('') != ''")),
        "{error}"
    );
}

/// A pattern from the object compiled for each item: each compile is charged by the
/// automaton it builds, so `\pL{30}` variants run out of budget, not of time.
#[test]
fn patterns_from_the_object_are_charged_as_they_compile() {
    let patterns: Vec<String> = (0..300).map(|n| format!("\\pL{{{}}}", 30 + n)).collect();
    let (status, error) = judged(
        "patterns",
        "\"self.l.all(p, !self.s.matches(p))\"",
        &[],
        serde_json::json!({"s": "x", "l": patterns}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&format!("{CALL_LIMIT}self.l.all(p, !self.s.matches(p))")),
        "{error}"
    );
}

/// `distinct()` of 3,000 items is quadratic, and charged so (cel-go's list extension).
#[test]
fn a_quadratic_distinct_is_refused_by_its_cost() {
    let (status, error) = judged(
        "distinct",
        "\"self.numbers.distinct().size() > 0\"",
        &[],
        serde_json::json!({"numbers": (0..3000).collect::<Vec<_>>()}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&format!("{CALL_LIMIT}self.numbers.distinct().size() > 0")),
        "{error}"
    );
}

/// A `messageExpression` that builds 100 MB with `join` is refused by its cost; one that
/// builds more than 5 KiB within it gives way to the rule's `message`, as the API server's.
#[test]
fn a_long_message_expression_gives_way_to_the_message() {
    let (status, error) = judged(
        "message-long",
        "\"false\"",
        &[
            "message: fallback message",
            "messageExpression: \"self.l.join('-')\"",
        ],
        serde_json::json!({"l": vec!["xxxxxxxxxx"; 1000]}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(error.contains("spec: fallback message"), "{error}");
    assert!(!error.contains("xxxxxxxxxx-"), "{error}");
    let (status, error) = judged(
        "message-huge",
        "\"false\"",
        &[
            "message: fallback message",
            "messageExpression: \"self.l.map(x, self.s).join('-')\"",
        ],
        serde_json::json!({"s": "x".repeat(100_000), "l": vec!["a"; 1000]}),
    );
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(
            "no further validation rules will be run due to call cost exceeds limit for \
             messageExpression: \"self.l.map(x, self.s).join('-')\""
        ),
        "{error}"
    );
}

/// Many objects' rules, each within the per-call limit, each object within its own budget:
/// all checked, and the object whose rules together exceed the budget is refused with the
/// API server's words.
#[test]
fn an_object_whose_rules_exceed_its_budget_is_refused() {
    // Each rule costs 900,003: 60,000 strings of 30 characters each searched for another
    // (15 a string); eleven fit in the object's 10,000,000, the twelfth does not.
    let rule = "\"self.l.all(x, x.contains(self.s))\"";
    let mut validations = String::new();
    for _ in 0..12 {
        validations.push_str(&format!("            - rule: {rule}\n"));
    }
    let crd = crd(rule, &[]).replace(&format!("            - rule: {rule}\n"), &validations);
    let spec = serde_json::json!({"s": "x".repeat(30), "l": vec!["x".repeat(30); 60_000]});
    let root = repository(
        "budget",
        &[
            ("crds/crd.yaml", &crd),
            ("fleet/widget.yaml", &widget("w", &spec)),
        ],
    );
    let output = validate(&root);
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains(
            "spec: validation failed due to running out of cost budget, no further validation \
             rules will be run"
        ),
        "{error}"
    );
}

/// The same attack's CRD in the fleet: the API server refuses to create it by its estimated
/// cost (apiextensions-apiserver validation.go, `StaticEstimatedCostLimit`), before any object
/// is judged.
#[test]
fn a_fleet_crd_that_costs_this_much_is_refused_at_creation() {
    let root = repository(
        "fleet-crd",
        &[
            (
                "fleet/crd.yaml",
                &crd("\"self.l.all(x, x.contains(self.s))\"", &[]),
            ),
            (
                "fleet/widget.yaml",
                &widget("w", &serde_json::json!({"s": "x", "l": ["x"]})),
            ),
        ],
    );
    let output = fedrender_in(
        &root,
        &["validate", "fleet", "--clusters", "fleet/clusters.yaml"],
    );
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains("refuses to create the CustomResourceDefinition"),
        "{error}"
    );
    assert!(
        error.contains("estimated rule cost exceeds budget"),
        "{error}"
    );
}
