//! The repositories a pull request could bring to make the schema and CEL checks of custom
//! resources hang the job or exhaust its memory: each a CRD (one the clusters already hold,
//! given with `--crds`, unless it says otherwise) and the custom resources that attack it.
//! `tests/cel_bounds.rs` asserts how each ends; `cargo bench --bench fleet -- --attacks`
//! measures the time and peak memory each takes on the release binary.

use std::path::Path;

/// One attack: the files of its repository and the command that judges them.
pub struct Attack {
    pub name: &'static str,
    /// What it cost before the checks were bounded.
    pub unbounded: &'static str,
    /// Each file of the repository, by its path from the root.
    pub files: Vec<(String, String)>,
    /// The fedrender command run in the repository's root.
    pub args: Vec<&'static str>,
}

impl Attack {
    /// Writes the attack's repository at `root` (which is created, with a `.git` so that it is
    /// a repository's checkout).
    pub fn write(&self, root: &Path) {
        std::fs::create_dir_all(root.join(".git")).unwrap();
        for (path, text) in &self.files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }
}

const INVENTORY: &str = "\
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
spec: {}
";

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

/// `validate` of the fleet, with the CRD the clusters hold.
const VALIDATE_WITH_CRDS: [&str; 6] = [
    "validate",
    "fleet",
    "--clusters",
    "fleet/clusters.yaml",
    "--crds",
    "crds/crd.yaml",
];

/// `validate` of the fleet alone: a CRD in it is created by the run, as Karmada would.
const VALIDATE: [&str; 4] = ["validate", "fleet", "--clusters", "fleet/clusters.yaml"];

/// A Widget CRD whose `spec` has a string `s`, a string `p`, a list of strings `l` and a list
/// of integers `numbers`, with `validations` (YAML list items, each starting `- rule:`,
/// indented to sit under `x-kubernetes-validations`) on `spec`.
pub fn widget_crd(validations: &str) -> String {
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
{validations}"
    )
}

/// The rule `rule` (a YAML string, quoted by the caller) with `extra` (more YAML keys of the
/// rule) as an item of `x-kubernetes-validations` in [`widget_crd`].
pub fn validation(rule: &str, extra: &[&str]) -> String {
    let mut item = format!("            - rule: {rule}\n");
    for line in extra {
        item.push_str(&format!("              {line}\n"));
    }
    item
}

/// A Widget named `name` in `default` with `spec` (JSON, which YAML reads).
pub fn widget(name: &str, spec: &serde_json::Value) -> String {
    format!(
        "apiVersion: example.io/v1\nkind: Widget\nmetadata: {{name: {name}, namespace: default}}\n\
         spec: {spec}\n"
    )
}

/// The fleet's inventory and policy, `crd` at `crd_path`, and `widgets` in one file.
fn repository(crd_path: &str, crd: String, widgets: String) -> Vec<(String, String)> {
    vec![
        ("fleet/clusters.yaml".to_string(), INVENTORY.to_string()),
        ("fleet/policy.yaml".to_string(), PLACE_WIDGETS.to_string()),
        (crd_path.to_string(), crd),
        ("fleet/widget.yaml".to_string(), widgets),
    ]
}

/// One rule on one Widget of `spec`, against the CRD the clusters hold.
fn one_rule(
    name: &'static str,
    unbounded: &'static str,
    rule: &str,
    extra: &[&str],
    spec: serde_json::Value,
) -> Attack {
    Attack {
        name,
        unbounded,
        files: repository(
            "crds/crd.yaml",
            widget_crd(&validation(rule, extra)),
            widget("w", &spec),
        ),
        args: VALIDATE_WITH_CRDS.to_vec(),
    }
}

/// Every attack, in the order the closing notes list them.
pub fn all() -> Vec<Attack> {
    use serde_json::json;
    let budget_rule = "\"self.l.all(x, x.contains(self.s))\"";
    vec![
        one_rule(
            "size-in-a-loop",
            "past 40 s: each read of a string copied it",
            "\"self.l.all(x, size(self.s) > 0)\"",
            &[],
            json!({"s": "é".repeat(1_000_000), "l": vec!["a"; 60_000]}),
        ),
        one_rule(
            "map-over-a-long-string",
            "3.2 GB: each item a copy of the string",
            "\"self.l.map(x, self.s).all(y, y.size() > 0)\"",
            &[],
            json!({"s": "x".repeat(1 << 20), "l": vec!["a"; 20_000]}),
        ),
        one_rule(
            "replace",
            "1.7 GB: what an evaluation builds was not charged",
            "\"self.s.replace('', self.s).size() > 0\"",
            &[],
            json!({"s": "x".repeat(30_000)}),
        ),
        one_rule(
            "join",
            "what join builds was not charged",
            "\"self.l.map(x, self.s).join('') != ''\"",
            &[],
            json!({"s": "x".repeat(30_000), "l": vec!["a"; 1000]}),
        ),
        one_rule(
            "patterns-from-the-object",
            "minutes: 43 ms to compile each \\pL{30}, charged by the pattern's length",
            "\"self.l.all(p, !self.s.matches(p))\"",
            &[],
            json!({"s": "x", "l": (0..300).map(|n| format!("\\pL{{{}}}", 30 + n)).collect::<Vec<_>>()}),
        ),
        one_rule(
            "distinct",
            "quadratic, charged as linear",
            "\"self.numbers.distinct().size() > 0\"",
            &[],
            json!({"numbers": (0..3000).collect::<Vec<_>>()}),
        ),
        one_rule(
            "message-expression",
            "100 MB of message from one line",
            "\"false\"",
            &[
                "message: fallback message",
                "messageExpression: \"self.l.map(x, self.s).join('-')\"",
            ],
            json!({"s": "x".repeat(100_000), "l": vec!["a"; 1000]}),
        ),
        one_rule(
            "long-message-expression",
            "a message past 5 KiB kept whole",
            "\"false\"",
            &[
                "message: fallback message",
                "messageExpression: \"self.l.join('-')\"",
            ],
            json!({"l": vec!["xxxxxxxxxx"; 1000]}),
        ),
        Attack {
            name: "rules-past-the-object-budget",
            unbounded: "every rule run to the end",
            files: repository(
                "crds/crd.yaml",
                widget_crd(&validation(budget_rule, &[]).repeat(12)),
                widget(
                    "w",
                    &json!({"s": "x".repeat(30), "l": vec!["x".repeat(30); 60_000]}),
                ),
            ),
            args: VALIDATE_WITH_CRDS.to_vec(),
        },
        Attack {
            name: "costly-crd-in-the-fleet",
            unbounded: "created and run",
            files: repository(
                "fleet/crd.yaml",
                widget_crd(&validation(budget_rule, &[])),
                widget("w", &json!({"s": "x", "l": ["x"]})),
            ),
            args: VALIDATE.to_vec(),
        },
        many_objects(),
        patterns_and_no_object(),
        deep_expression(),
    ]
}

/// The attack named `name`.
#[allow(dead_code)] // the tests use it, the benchmark does not
pub fn named(name: &str) -> Attack {
    all()
        .into_iter()
        .find(|attack| attack.name == name)
        .unwrap_or_else(|| panic!("no attack named {name}"))
}

/// 100 Widgets of 8.6 KB, each within the API server's budget for one object, that together
/// cost far more than a run may spend: ten rules that each compare every one of 280 strings
/// of 30 characters with every other one and a character more.
fn many_objects() -> Attack {
    let rule = validation("\"self.l.all(x, self.l.all(y, x != y + 'z'))\"", &[]);
    let spec = serde_json::json!({"l": (0..280).map(|n| format!("{n:030}")).collect::<Vec<_>>()});
    let widgets: Vec<String> = (0..100).map(|n| widget(&format!("w{n}"), &spec)).collect();
    Attack {
        name: "many-costly-objects",
        unbounded: "43 s: no budget for the whole run",
        files: repository(
            "crds/crd.yaml",
            widget_crd(&rule.repeat(10)),
            widgets.join("---\n"),
        ),
        args: VALIDATE_WITH_CRDS.to_vec(),
    }
}

/// A 93 KB CRD of 1,000 string fields, each with a pattern that compiles to a large
/// automaton, and no custom resource of its kind.
fn patterns_and_no_object() -> Attack {
    let mut crd = widget_crd(&validation("\"true\"", &[]));
    let properties: String = (0..1000)
        .map(|n| format!("              f{n:04}: {{type: string, pattern: '^(\\pL{{30}}[a-z]{{20}}){{3}}$'}}\n"))
        .collect();
    crd = crd.replace(
        "              s: {type: string}\n",
        &format!("              s: {{type: string}}\n{properties}"),
    );
    Attack {
        name: "patterns-and-no-object",
        unbounded: "25 s and 960 MB: every pattern compiled up front",
        files: vec![
            ("fleet/clusters.yaml".to_string(), INVENTORY.to_string()),
            ("fleet/policy.yaml".to_string(), PLACE_WIDGETS.to_string()),
            ("fleet/crd.yaml".to_string(), crd),
        ],
        args: VALIDATE.to_vec(),
    }
}

/// A rule of 60 KB of nested parentheses.
fn deep_expression() -> Attack {
    let depth = 30_000;
    let rule = format!("\"{}true{}\"", "(".repeat(depth), ")".repeat(depth));
    Attack {
        name: "deep-expression",
        unbounded: "the stack overflowed (SIGABRT)",
        files: repository(
            "crds/crd.yaml",
            widget_crd(&validation(&rule, &[])),
            widget("w", &serde_json::json!({"s": "x"})),
        ),
        args: VALIDATE_WITH_CRDS.to_vec(),
    }
}
