//! A pull request from a fork controls every file of the fleet, CRDs and custom resources
//! included. Each test here is one attack on the schema checks such a pull request can try,
//! written as the attacker would and run through the real binary: a CRD whose choices multiply
//! the work of a check, a CRD whose findings would flood the report, a CRD in the fleet that
//! would replace the one the job trusts, and a CRD no API server would take.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::ONE_CLUSTER_INVENTORY;
use common::{empty_scratch, fedrender_in, stderr};

/// Places every Widget on member1; CRDs stay unplaced, as a fleet that only declares them.
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

/// A CRD for example.io Widget, named `name`, whose version's `openAPIV3Schema` is `schema`
/// (YAML, written from the first column).
fn crd(name: &str, schema: &str) -> String {
    let mut text = format!(
        "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: {name}}}
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
"
    );
    for line in schema.lines() {
        text.push_str("        ");
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// A repository with an inventory and a policy placing Widgets, the files of `files` (path,
/// text) besides.
fn repository(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = empty_scratch(&format!("untrusted-schemas-{name}"));
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

fn validate(root: &Path, flags: &[&str]) -> Output {
    let mut args = vec!["validate", "fleet", "--clusters", "fleet/clusters.yaml"];
    args.extend(flags);
    fedrender_in(root, &args)
}

/// 727 bytes of CRD: `spec.items` are each checked against an anyOf of eight anyOfs of eight
/// anyOfs… four levels down to a length, every level one YAML alias of the one below — 4,681
/// schema nodes for each item that fits none (a structural schema: the items are strings, the
/// choices value validations). An 11 KB Widget of 2,000 items took over a minute to check,
/// and failed with 2,000 errors.
#[test]
fn a_crd_whose_choices_fan_out_through_aliases_is_not_checked_past_its_budget() {
    let crd = crd(
        "widgets.example.io",
        r"type: object
properties:
  spec:
    type: object
    properties:
      items:
        type: array
        items:
          type: string
          anyOf: [&l3 {anyOf: [&l2 {anyOf: [&l1 {anyOf: [&s {maxLength: 0}, *s, *s, *s, *s, *s, *s, *s]}, *l1, *l1, *l1, *l1, *l1, *l1, *l1]}, *l2, *l2, *l2, *l2, *l2, *l2, *l2]}, *l3, *l3, *l3, *l3, *l3, *l3, *l3]
",
    );
    let items: Vec<String> = (0..2000).map(|n| format!("'{n}'")).collect();
    let widget = format!(
        "apiVersion: example.io/v1\nkind: Widget\nmetadata: {{name: w, namespace: default}}\n\
         spec:\n  items: [{}]\n",
        items.join(", ")
    );
    let root = repository(
        "fan-out",
        &[("fleet/crd.yaml", &crd), ("fleet/widget.yaml", &widget)],
    );
    let output = validate(&root, &[]);
    let error = stderr(&output);
    // Not checked is an error (fedrender fails closed, issue 47), saying which CRD and object.
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains(
            "error: fleet/widget.yaml:1: Widget.example.io default/w: not checked: checking it \
             against the CRD widgets.example.io (fleet/crd.yaml:1) takes more than 450,800 \
             steps, the budget for an object of 2,008 values (the schema's anyOf, oneOf and \
             allOf choices multiply the work); fedrender does not call valid what it could not \
             check (on cluster member1"
        ),
        "{error}"
    );
    assert!(error.contains("[schema-invalid]"), "{error}");
    assert!(!error.contains("matches 0 of"), "{error}");
    let denied = validate(&root, &["--deny", "unchecked-kind"]);
    assert_eq!(denied.status.code(), Some(2), "{}", stderr(&denied));
}

/// A CRD requiring 100,000 fields, and ten objects that hold none of them: every missing
/// field was a line, 220 MB in all. Each object now reports 20 and counts the rest, and the
/// run still fails.
#[test]
fn a_hundred_thousand_required_fields_print_a_bounded_report() {
    let required: Vec<String> = (0..100_000).map(|n| format!("f{n}")).collect();
    let crd = crd(
        "widgets.example.io",
        &format!(
            "type: object\nproperties:\n  spec:\n    type: object\n    required: [{}]\n",
            required.join(", ")
        ),
    );
    let widgets: Vec<String> = (0..10)
        .map(|n| {
            format!(
                "apiVersion: example.io/v1\nkind: Widget\nmetadata: {{name: w{n}, namespace: \
                 default}}\nspec: {{}}\n"
            )
        })
        .collect();
    let widgets = widgets.join("---\n");
    let root = repository(
        "required",
        &[("fleet/crd.yaml", &crd), ("fleet/widgets.yaml", &widgets)],
    );
    let output = validate(&root, &[]);
    let error = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        &error[..error.len().min(2000)]
    );
    assert!(error.len() < 64 * 1024, "{} bytes of messages", error.len());
    for n in 0..10 {
        assert!(
            error.contains(&format!(
                "Widget.example.io default/w{n}: … and 99,980 more findings in this object"
            )),
            "w{n}: {}",
            &error[..error.len().min(2000)]
        );
    }
    assert_eq!(error.matches(": is required").count(), 10 * 20, "{error}");
}

/// The fleet brings its own CRD of a kind, looser than the one the job passes with --crds (a
/// string where the live CRD wants an integer), and never places it. The command line's CRD
/// is what the objects are checked against, and the run says the fleet's was set aside.
#[test]
fn a_crd_in_the_fleet_does_not_replace_the_one_crds_gives() {
    let schema = |size: &str| {
        format!(
            "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      \
             size: {{type: {size}}}\n"
        )
    };
    let live = crd("widgets.example.io", &schema("integer"));
    let loose = crd("widgets.example.io", &schema("string"));
    let widget = "\
apiVersion: example.io/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: huge
";
    let root = repository(
        "crds-conflict",
        &[
            ("crds/live.yaml", &live),
            ("fleet/crd.yaml", &loose),
            ("fleet/widget.yaml", widget),
        ],
    );
    let output = validate(&root, &["--crds", "crds/live.yaml"]);
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains(
            "warning: fleet/crd.yaml:1: the CRD widgets.example.io defines example.io Widget \
             unlike the one --crds gives, widgets.example.io (crds/live.yaml:1): Widget objects \
             are checked against --crds' schemas, not this CRD's [skipped-input]"
        ),
        "{error}"
    );
    assert!(
        error.contains(
            "Widget.example.io default/w: spec.size: \"huge\" is a string, the schema wants an \
             integer"
        ),
        "{error}"
    );
    // Without --crds the fleet's CRD is the only one, and nothing is said of it.
    let alone = validate(&root, &[]);
    assert_eq!(alone.status.code(), Some(0), "{}", stderr(&alone));
    assert!(!stderr(&alone).contains("--crds gives"));
}

/// A CRD whose YAML aliases expand a 4 KiB string into 4 MiB of JSON: no API server takes a
/// request that large, so it is refused at its line, and nothing is written.
#[test]
fn a_crd_larger_than_an_api_server_takes_is_refused_at_its_line() {
    let sixteen = |alias: &str| vec![alias; 16].join(", ");
    let crd = crd(
        "huge.example.io",
        &format!(
            "type: object\nx-kubernetes-preserve-unknown-fields: true\nexample:\n  \
             a: &a0 {}\n  b: &a1 [{}]\n  c: &a2 [{}]\n  d: [*a2, *a2, *a2, *a2]\n",
            "x".repeat(4096),
            sixteen("*a0"),
            sixteen("*a1")
        ),
    );
    let crds = format!(
        "{}---\n{crd}",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {a: b}\n"
    );
    let root = repository("oversized", &[("fleet/crds.yaml", &crds)]);
    let output = fedrender_in(
        &root,
        &[
            "build",
            "fleet",
            "--clusters",
            "fleet/clusters.yaml",
            "--out",
            "rendered",
        ],
    );
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    // The reader weighs every document against the API server's 3 MiB before anything is
    // built, so it refuses this CRD before the schema stage's own cap (which CRDs given with
    // --crds meet too) would: either way, at the CRD's line and naming the limit.
    let at_line = error
        .lines()
        .find(|line| line.starts_with("error: fleet/crds.yaml:6: "))
        .unwrap_or_else(|| panic!("no error at the CRD's line: {error}"));
    assert!(at_line.contains("3 MiB"), "{at_line}");
    assert!(!root.join("rendered").exists());
}
