//! Recorded runs of the Karmada oracle (Karmada's own code, run on a fleet): each case under
//! `testdata/oracle/` holds a fleet (`input/`), an inventory (`clusters.yaml`), what Karmada
//! rendered for each member cluster (`karmada.json`, the oracle's whole output) and where they
//! came from (`PROVENANCE`). fedrender renders each case now and must agree with the recording
//! as the oracle's `compare.py` judges agreement, so the comparison needs no Go and no oracle;
//! `testdata/references/regenerate.py` records the runs again.
//!
//! What `compare.py` leaves out of the comparison, left out here too:
//! - fedrender's `kustomization.yaml` files (they hold no object) and its header comments;
//! - the bookkeeping labels and annotations Karmada's controllers stamp on every manifest, and
//!   `metadata.labels` / `metadata.annotations` empty on one side and absent on the other;
//! - a Namespace's `kubernetes.io/metadata.name` label equal to its name, which the API server
//!   sets;
//! - objects the oracle skipped as out of its scope;
//! - a field Karmada's API server defaulted (`serverDefaults`) that fedrender leaves out, when
//!   the member's API server would default it the same way;
//! - a container's `imagePullPolicy` fedrender writes where the oracle has none: Karmada's API
//!   server defaults it in the template, which the oracle does not emulate;
//! - objects fedrender sends as dependencies of a `propagateDeps` workload (the oracle lists
//!   them, but does not run the dependencies distributor);
//! - `1` and `1.0`, the same JSON number.
//!
//! When Karmada refuses the input, or fails to build some cluster's Work, fedrender must fail the
//! whole run (its documented rule), naming each object Karmada failed on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fedrender::source::fleet::{FleetSource, Inventory, run_fleet};
use fedrender_engine::run::Options;
use serde_json::Value;

/// Labels and annotations Karmada's controllers add (compare.py `IGNORED_LABELS`,
/// `IGNORED_ANNOTATIONS`).
const IGNORED_LABELS: &[&str] = &[
    "karmada.io/managed",
    "propagationpolicy.karmada.io/permanent-id",
    "clusterpropagationpolicy.karmada.io/permanent-id",
    "resourcebinding.karmada.io/permanent-id",
    "clusterresourcebinding.karmada.io/permanent-id",
    "work.karmada.io/permanent-id",
];
const IGNORED_ANNOTATIONS: &[&str] = &[
    "propagationpolicy.karmada.io/name",
    "propagationpolicy.karmada.io/namespace",
    "clusterpropagationpolicy.karmada.io/name",
    "resourcebinding.karmada.io/name",
    "resourcebinding.karmada.io/namespace",
    "clusterresourcebinding.karmada.io/name",
    "resourcetemplate.karmada.io/managed-annotations",
    "resourcetemplate.karmada.io/managed-labels",
    "resourcetemplate.karmada.io/uid",
    "resourcetemplate.karmada.io/generation",
    "work.karmada.io/conflict-resolution",
    "work.karmada.io/name",
    "work.karmada.io/namespace",
    "policy.karmada.io/applied-overrides",
    "policy.karmada.io/applied-cluster-overrides",
];

/// apiVersion, kind, namespace, name.
type Key = (String, String, String, String);

fn key_of(object: &Value) -> Key {
    let field = |value: &Value| value.as_str().unwrap_or_default().to_string();
    let metadata = &object["metadata"];
    (
        field(&object["apiVersion"]),
        field(&object["kind"]),
        field(&metadata["namespace"]),
        field(&metadata["name"]),
    )
}

/// The key of an object as the oracle names it in `skipped`, `serverDefaults`, `dependents`
/// and `bindings`: `{apiVersion, kind, namespace, name}`.
fn key_of_reference(reference: &Value) -> Key {
    let field = |name: &str| reference[name].as_str().unwrap_or_default().to_string();
    (
        field("apiVersion"),
        field("kind"),
        field("namespace"),
        field("name"),
    )
}

fn cases() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("testdata/oracle")
        .expect("testdata/oracle exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("input").is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// compare.py `normalize`: bookkeeping labels and annotations dropped, and an empty map there
/// dropped too; a Namespace's `kubernetes.io/metadata.name` label equal to its name (the API
/// server sets it, so it says nothing either side wrote) dropped too.
fn normalize(mut object: Value) -> Value {
    let namespace = object["kind"] == "Namespace";
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        let name = metadata.get("name").cloned();
        if let Some(labels) = metadata.get_mut("labels").and_then(Value::as_object_mut)
            && namespace
            && labels.get("kubernetes.io/metadata.name") == name.as_ref()
        {
            labels.remove("kubernetes.io/metadata.name");
        }
        for (field, ignored) in [
            ("labels", IGNORED_LABELS),
            ("annotations", IGNORED_ANNOTATIONS),
        ] {
            if let Some(map) = metadata.get_mut(field).and_then(Value::as_object_mut) {
                map.retain(|key, _| !ignored.contains(&key.as_str()));
            }
            let empty = metadata.get(field).is_some_and(|value| {
                value.is_null() || value.as_object().is_some_and(|map| map.is_empty())
            });
            if empty {
                metadata.remove(field);
            }
        }
    }
    object
}

/// RFC 6901 escaping of one pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// compare.py `diff`: field-level differences, as (pointer, Karmada's value, fedrender's value),
/// `None` for a field absent on that side.
fn diff(
    karmada: &Value,
    fedrender: &Value,
    pointer: &str,
    out: &mut Vec<(String, Option<Value>, Option<Value>)>,
) {
    match (karmada, fedrender) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let at = format!("{pointer}/{}", escape(key));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => diff(x, y, &at, out),
                    (x, y) => out.push((at, x.cloned(), y.cloned())),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                diff(x, y, &format!("{pointer}/{index}"), out);
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (a, b) if a == b => {}
        (a, b) => out.push((
            if pointer.is_empty() { "/" } else { pointer }.to_string(),
            Some(a.clone()),
            Some(b.clone()),
        )),
    }
}

/// compare.py `member_defaults_the_same`: a Job's completions and parallelism are defaulted only
/// together, when both are unset.
fn member_defaults_the_same(object: &Value, pointer: &str) -> bool {
    if object["kind"] == "Job" && matches!(pointer, "/spec/completions" | "/spec/parallelism") {
        let spec = &object["spec"];
        return spec.get("completions").is_none() && spec.get("parallelism").is_none();
    }
    true
}

/// fedrender's objects per cluster, each read back as sigs.k8s.io/yaml reads the file.
fn rendered_objects(dir: &Path) -> Result<BTreeMap<String, BTreeMap<Key, Value>>, String> {
    let source = FleetSource::new(
        dir.join("input"),
        Inventory::File(dir.join("clusters.yaml")),
    );
    let outcome = run_fleet(&source, &Options::default(), |run| run.tree());
    let rendered = outcome.result.map_err(|rejected| rejected.to_string())?;
    let mut clusters: BTreeMap<String, BTreeMap<Key, Value>> = BTreeMap::new();
    for cluster in &rendered.tree.clusters {
        clusters.entry(cluster.clone()).or_default();
    }
    for (path, _, text) in rendered.tree.objects() {
        let (cluster, _) = path.split_once('/').unwrap();
        for document in fedrender_engine::yaml::split_documents(text) {
            let object =
                fedrender_engine::yaml::parse_document_as_yaml_to_json(&document, path).unwrap();
            clusters
                .entry(cluster.to_string())
                .or_default()
                .insert(key_of(&object), object);
        }
    }
    Ok(clusters)
}

/// The differences between the recording and fedrender's rendering, as compare.py reports them;
/// empty when they agree.
fn compare(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("karmada.json")).unwrap();
    let karmada: Value = serde_json::from_str(&text).unwrap();
    let list = |name: &str| karmada[name].as_array().cloned().unwrap_or_default();
    let rendered = rendered_objects(dir);
    let work_errors: Vec<Value> = list("bindings")
        .into_iter()
        .filter(|binding| {
            binding
                .get("workError")
                .is_some_and(|error| !error.is_null())
        })
        .collect();
    if !list("rejected").is_empty() || !work_errors.is_empty() {
        // Karmada refuses the input, or skips some cluster's Work: fedrender stops, naming the
        // objects Karmada failed on.
        return match rendered {
            Ok(_) => vec![format!(
                "Karmada refuses or fails ({:?}, {work_errors:?}); fedrender renders",
                list("rejected")
            )],
            Err(error) => work_errors
                .iter()
                .map(|binding| key_of_reference(&binding["object"]))
                .filter(|(_, _, namespace, name)| !error.contains(&format!("{namespace}/{name}")))
                .map(|key| format!("fedrender's error does not name {key:?}: {error}"))
                .collect(),
        };
    }
    let rendered = match rendered {
        Ok(rendered) => rendered,
        Err(error) => return vec![format!("fedrender fails on input Karmada accepts: {error}")],
    };
    let skipped: BTreeSet<Key> = list("skipped")
        .iter()
        .filter(|skip| {
            let reason = skip["reason"].as_str().unwrap_or_default();
            reason.contains("out of scope") || reason.contains("fedrender's Config")
        })
        .map(|skip| key_of_reference(&skip["object"]))
        .collect();
    let mut defaults: BTreeMap<Key, BTreeMap<String, Value>> = BTreeMap::new();
    for default in list("serverDefaults") {
        defaults
            .entry(key_of_reference(&default["object"]))
            .or_default()
            .insert(
                default["pointer"].as_str().unwrap().to_string(),
                default["value"].clone(),
            );
    }
    let mut dependents: BTreeSet<(String, Key)> = BTreeSet::new();
    for dependent in list("dependents") {
        for cluster in dependent["clusters"].as_array().into_iter().flatten() {
            let cluster = cluster.as_str().unwrap().to_string();
            dependents.insert((cluster, key_of_reference(&dependent["object"])));
        }
    }
    let recorded: BTreeMap<String, Vec<Value>> =
        serde_json::from_value(karmada["clusters"].clone()).unwrap();
    let names: BTreeSet<&String> = recorded.keys().chain(rendered.keys()).collect();
    let mut differences = Vec::new();
    for cluster in names {
        let theirs: BTreeMap<Key, Value> = recorded
            .get(cluster)
            .into_iter()
            .flatten()
            .map(|object| (key_of(object), normalize(object.clone())))
            .collect();
        let ours: BTreeMap<Key, Value> = rendered
            .get(cluster)
            .into_iter()
            .flatten()
            .filter(|(key, _)| !skipped.contains(*key))
            .map(|(key, object)| (key.clone(), normalize(object.clone())))
            .collect();
        let keys: BTreeSet<&Key> = theirs.keys().chain(ours.keys()).collect();
        for key in keys {
            match (theirs.get(key), ours.get(key)) {
                (Some(_), None) => differences.push(format!("[{cluster}] missing: {key:?}")),
                (None, Some(_)) if dependents.contains(&(cluster.clone(), key.clone())) => {}
                (None, Some(_)) => differences.push(format!("[{cluster}] extra: {key:?}")),
                (Some(karmada), Some(fedrender)) => {
                    let mut found = Vec::new();
                    diff(karmada, fedrender, "", &mut found);
                    for (pointer, karmada_value, fedrender_value) in found {
                        let defaulted = fedrender_value.is_none()
                            && defaults.get(key).and_then(|fields| fields.get(&pointer))
                                == karmada_value.as_ref()
                            && member_defaults_the_same(fedrender, &pointer);
                        // The oracle does not default containers as Karmada's API server does
                        // (SetDefaults_Container): Karmada's Work carries every container's
                        // imagePullPolicy, and fedrender writes the template's where the
                        // member would default another (overrides::pull_policy's tests).
                        let pull_policy = karmada_value.is_none()
                            && pointer.ends_with("/imagePullPolicy")
                            && matches!(
                                fedrender_value.as_ref().and_then(Value::as_str),
                                Some("Always" | "IfNotPresent")
                            );
                        if !defaulted && !pull_policy {
                            differences.push(format!(
                                "[{cluster}] {key:?} {pointer}: karmada={karmada_value:?} \
                                 fedrender={fedrender_value:?}"
                            ));
                        }
                    }
                }
                (None, None) => unreachable!(),
            }
        }
    }
    differences
}

#[test]
fn fedrender_agrees_with_every_recorded_karmada_run() {
    let dirs = cases();
    assert!(dirs.len() >= 3, "{dirs:?}");
    let mut failed = Vec::new();
    for dir in &dirs {
        let provenance = std::fs::read_to_string(dir.join("PROVENANCE")).unwrap();
        assert!(provenance.contains("karmada: "), "{}", dir.display());
        let differences = compare(dir);
        if !differences.is_empty() {
            failed.push(format!(
                "{}:\n  {}",
                dir.display(),
                differences.join("\n  ")
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The recordings are not vacuous: between them they place objects, divide replicas among
/// clusters, and fail.
#[test]
fn the_recorded_runs_place_objects_divide_replicas_and_fail() {
    let (mut objects, mut divided, mut failing) = (0, 0, 0);
    for dir in cases() {
        let text = std::fs::read_to_string(dir.join("karmada.json")).unwrap();
        let karmada: Value = serde_json::from_str(&text).unwrap();
        for objects_of in karmada["clusters"].as_object().unwrap().values() {
            objects += objects_of.as_array().unwrap().len();
        }
        for binding in karmada["bindings"].as_array().unwrap() {
            let clusters = binding["clusters"].as_array().cloned().unwrap_or_default();
            let shares: i64 = clusters.iter().filter_map(|c| c["replicas"].as_i64()).sum();
            divided +=
                usize::from(clusters.len() > 1 && Some(shares) == binding["replicas"].as_i64());
            failing += usize::from(binding.get("workError").is_some());
        }
    }
    assert!(objects > 50, "{objects}");
    assert!(divided > 3, "{divided}");
    assert!(failing > 0);
}

/// A case whose Config turns on karmada-scheduler's empty-workload propagation was recorded by
/// an oracle that read the flag from that Config (its `assumptions` say so): one recorded with
/// the flag hard-coded off would render a different fleet from the one fedrender is asked for.
#[test]
fn cases_with_empty_workload_propagation_were_recorded_with_the_flag_on() {
    let mut found = 0;
    for dir in cases() {
        let config = std::fs::read_to_string(dir.join("input/config.yaml")).unwrap_or_default();
        if !config.contains("enableEmptyWorkloadPropagation: true") {
            continue;
        }
        found += 1;
        let text = std::fs::read_to_string(dir.join("karmada.json")).unwrap();
        let karmada: Value = serde_json::from_str(&text).unwrap();
        let assumptions = karmada["assumptions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            assumptions.iter().any(|line| line
                == "scheduler flags from the Config: --enable-empty-workload-propagation=true"),
            "{}: recorded without the flag: {assumptions:?}",
            dir.display()
        );
    }
    assert!(found > 0);
}

/// Whether `clause` names the workload the oracle calls `Kind namespace/name`: fedrender
/// writes it `Kind.group namespace/name` (`Kind` for the core group).
fn names_workload(clause: &str, oracle_name: &str) -> bool {
    let (kind, namespaced) = oracle_name.split_once(' ').unwrap();
    clause.match_indices(namespaced).any(|(at, _)| {
        let after = clause[at + namespaced.len()..].chars().next();
        let before = clause[..at].trim_end_matches(' ');
        let word = before.rsplit(' ').next().unwrap_or_default();
        word.split('.').next() == Some(kind)
            && !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '.'))
    })
}

/// What the oracle's run of Karmada's ResourceBinding webhook (`pkg/webhook/resourcebinding/
/// validating.go`, `ValidatingAdmission.Handle`, gate FederatedQuotaEnforcement, every order of
/// each namespace's bindings) denied, against fedrender's `quota-exceeded` findings: a finding
/// exactly where some order is denied; for the resource each denial names, the workload
/// denied in every order named "whatever the order", one denied in some orders named as
/// depending on the order, and one never denied never named as denied.
fn compare_quota_admission(dir: &Path, karmada: &Value) -> Vec<String> {
    let Some(admission) = karmada.get("quotaAdmission").filter(|a| !a.is_null()) else {
        return Vec::new();
    };
    let source = FleetSource::new(
        dir.join("input"),
        Inventory::File(dir.join("clusters.yaml")),
    );
    let outcome = run_fleet(&source, &Options::default(), |run| run.tree());
    if let Err(rejected) = outcome.result {
        return vec![format!("fedrender fails: {rejected}")];
    }
    let findings: Vec<String> = (outcome.warnings.iter())
        .filter(|warning| warning.lint == Some(fedrender_engine::lint::Lint::QuotaExceeded))
        .map(|warning| warning.message.clone())
        .collect();
    let orders = admission["orders"].as_array().unwrap();
    // Each binding: in how many orders it was denied, and the quotas and resources it was
    // denied for (`FederatedResourceQuota(shop/compute) exceeded for resource cpu`).
    let mut denied: BTreeMap<String, (usize, BTreeSet<String>)> = BTreeMap::new();
    let mut bindings: BTreeSet<String> = BTreeSet::new();
    for order in orders {
        for binding in order["order"].as_array().unwrap() {
            bindings.insert(binding.as_str().unwrap().to_string());
        }
        for denial in order["denied"].as_array().unwrap() {
            let message = denial["message"].as_str().unwrap();
            let reason = message.split(':').next().unwrap().to_string();
            let entry = denied
                .entry(denial["binding"].as_str().unwrap().to_string())
                .or_default();
            entry.0 += 1;
            entry.1.insert(reason);
        }
    }
    let mut differences = Vec::new();
    if denied.is_empty() != findings.is_empty() {
        differences.push(format!(
            "Karmada's webhook denies {denied:?} over {} orders; fedrender finds {findings:?}",
            orders.len()
        ));
        return differences;
    }
    let clause = |finding: &str, marker: &str| -> Option<String> {
        finding
            .split("; ")
            .find(|clause| clause.contains(marker))
            .map(str::to_string)
    };
    for binding in &bindings {
        match denied.get(binding) {
            Some((count, reasons)) => {
                let in_every = *count == orders.len();
                let marker = if in_every {
                    "whatever the order"
                } else {
                    "depends on the order"
                };
                let named = reasons.iter().all(|reason| {
                    findings.iter().any(|finding| {
                        finding.contains(&format!("\"{reason}\""))
                            && clause(finding, marker)
                                .is_some_and(|clause| names_workload(&clause, binding))
                    })
                });
                if !named {
                    differences.push(format!(
                        "Karmada denies {binding} in {count} of {} orders ({reasons:?}); no \
                         finding names it under \"{marker}\": {findings:?}",
                        orders.len()
                    ));
                }
            }
            None => {
                for marker in ["whatever the order", "depends on the order"] {
                    if (findings.iter())
                        .filter_map(|finding| clause(finding, marker))
                        .any(|clause| names_workload(&clause, binding))
                    {
                        differences.push(format!(
                            "Karmada admits {binding} in every order; fedrender names it under \
                             \"{marker}\": {findings:?}"
                        ));
                    }
                }
            }
        }
    }
    differences
}

#[test]
fn fedrender_names_what_karmadas_binding_webhook_denies_in_every_recorded_order() {
    let (mut recorded, mut denied_always, mut denied_by_order, mut within) = (0, 0, 0, 0);
    let mut failed = Vec::new();
    for dir in cases() {
        let text = std::fs::read_to_string(dir.join("karmada.json")).unwrap();
        let karmada: Value = serde_json::from_str(&text).unwrap();
        let Some(orders) = karmada["quotaAdmission"]["orders"].as_array() else {
            continue;
        };
        assert_eq!(
            karmada["quotaAdmission"]["federatedQuotaEnforcement"],
            true,
            "{}: recorded with the gate off",
            dir.display()
        );
        recorded += 1;
        let counts: Vec<usize> = orders
            .iter()
            .map(|order| order["denied"].as_array().unwrap().len())
            .collect();
        let names: BTreeSet<&str> = (orders.iter())
            .flat_map(|order| order["denied"].as_array().unwrap())
            .map(|denial| denial["binding"].as_str().unwrap())
            .collect();
        match (counts.iter().all(|&n| n == 0), names.len()) {
            (true, _) => within += 1,
            (false, 1) => denied_always += 1,
            (false, _) => denied_by_order += 1,
        }
        let differences = compare_quota_admission(&dir, &karmada);
        if !differences.is_empty() {
            failed.push(format!(
                "{}:\n  {}",
                dir.display(),
                differences.join("\n  ")
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Not vacuous: a quota every order fits, one a workload alone exceeds, and one where the
    // order decides which workload is denied.
    assert!(recorded >= 3, "{recorded}");
    assert!(within > 0 && denied_always > 0 && denied_by_order > 0);
}

#[test]
fn a_workload_is_named_with_its_group_and_whole_name() {
    let clause = "it denies Deployment.apps shop/worker whatever the order";
    assert!(names_workload(clause, "Deployment shop/worker"));
    assert!(!names_workload(clause, "Deployment shop/work"));
    assert!(!names_workload(clause, "StatefulSet shop/worker"));
    assert!(names_workload("Service shop/web fits", "Service shop/web"));
}
