//! A custom resource's `metadata`, checked as the API server checks it: as an `ObjectMeta`,
//! whatever the CRD's schema says of it (k8s.io/apiextensions-apiserver
//! pkg/registry/customresource/validator.go runs apimachinery's `ValidateObjectMetaAccessor`
//! with `NameIsDNSSubdomain` on every custom resource). A CRD may only narrow `name` and
//! `generateName` (apiextensions pkg/apiserver/schema/validation.go
//! `validateStructuralMetadataInvariants`); those narrowings are in the CRD's compiled schema
//! ([`super::schema::Schema::from_crd`]), and everything else is here.

use serde_json::{Map, Value};

use crate::lint::Lint;
use crate::names;

/// The fields of `metav1.ObjectMeta` (k8s.io/apimachinery pkg/apis/meta/v1/types.go). Any other
/// field of a custom resource's metadata is lost when the API server decodes it as one.
const OBJECT_META_FIELDS: [&str; 15] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

/// The most bytes the keys and values of an object's annotations may hold together:
/// apimachinery pkg/api/validation/objectmeta.go `TotalAnnotationSizeLimitB`, 256 KiB.
const ANNOTATIONS_LIMIT: usize = 256 * 1024;

/// Problems of a map's entries: `(Some(key), problem)` for a key or its value, `(None, problem)`
/// for the map as a whole.
type Problems = Vec<(Option<String>, String)>;

/// What the API server says of a custom resource's `metadata`: each finding's lint, field path
/// and problem.
pub fn check(object: &Value) -> Vec<(Lint, String, String)> {
    let mut findings = Vec::new();
    let mut invalid =
        |path: String, problem: String| findings.push((Lint::SchemaInvalid, path, problem));
    let metadata = match object.get("metadata") {
        None | Some(Value::Null) => return findings,
        Some(Value::Object(metadata)) => metadata,
        Some(_) => {
            invalid("metadata".to_string(), "must be an object".to_string());
            return findings;
        }
    };
    for (field, name_fn) in [("name", false), ("generateName", true)] {
        match metadata.get(field) {
            None | Some(Value::Null) => {}
            Some(Value::String(name)) => {
                if let Some(problem) = name_problem(name, name_fn) {
                    invalid(
                        format!("metadata.{field}"),
                        format!("{name:?} is not a valid name: {problem}"),
                    );
                }
            }
            Some(_) => invalid(format!("metadata.{field}"), "must be a string".to_string()),
        }
    }
    if let Some(Value::String(namespace)) = metadata.get("namespace")
        && !namespace.is_empty()
        && let Some(problem) = names::dns_label_problem(namespace)
    {
        invalid(
            "metadata.namespace".to_string(),
            format!("{namespace:?} is not a valid namespace: {problem}"),
        );
    }
    for (field, problems) in [
        ("labels", string_map(metadata, "labels", label_problems)),
        (
            "annotations",
            string_map(metadata, "annotations", annotation_problems),
        ),
    ] {
        for (key, problem) in problems {
            let path = match key {
                Some(key) => format!("metadata.{field}[{key:?}]"),
                None => format!("metadata.{field}"),
            };
            invalid(path, problem);
        }
    }
    if let Some(finalizers) = metadata.get("finalizers") {
        match finalizers {
            Value::Null => {}
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let problem = match item.as_str() {
                        Some(finalizer) => {
                            names::qualified_name_problem(finalizer).map(|problem| {
                                format!("{finalizer:?} is not a qualified name: {problem}")
                            })
                        }
                        None => Some("must be a string".to_string()),
                    };
                    if let Some(problem) = problem {
                        invalid(format!("metadata.finalizers[{index}]"), problem);
                    }
                }
            }
            _ => invalid(
                "metadata.finalizers".to_string(),
                "must be a list of strings".to_string(),
            ),
        }
    }
    for field in metadata.keys() {
        if !OBJECT_META_FIELDS.contains(&field.as_str()) {
            findings.push((
                Lint::PrunedField,
                format!("metadata.{field}"),
                "is not a field of ObjectMeta: the API server drops it".to_string(),
            ));
        }
    }
    findings
}

/// apimachinery `NameIsDNSSubdomain`: a name is a DNS subdomain; a `generateName` is one once
/// its trailing `-` is read as a letter (`maskTrailingDash`), since a random suffix follows it.
fn name_problem(name: &str, prefix: bool) -> Option<String> {
    let masked;
    let name = match name.strip_suffix('-') {
        Some(stem) if prefix && !stem.is_empty() => {
            masked = format!("{stem}a");
            masked.as_str()
        }
        _ => name,
    };
    names::dns_subdomain_problem(name)
}

/// The problems of the string map at `metadata.<field>`: `(Some(key), problem)` for a key or
/// value, `(None, problem)` for the map as a whole.
fn string_map(
    metadata: &Map<String, Value>,
    field: &str,
    problems_of: fn(&Map<String, Value>) -> Problems,
) -> Problems {
    match metadata.get(field) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) => {
            let mut problems: Problems = map
                .iter()
                .filter(|(_, value)| !value.is_string())
                .map(|(key, _)| (Some(key.clone()), "must be a string".to_string()))
                .collect();
            problems.extend(problems_of(map));
            problems
        }
        Some(_) => vec![(None, "must be a map of strings".to_string())],
    }
}

/// apimachinery `ValidateLabels`: each key a qualified name, each value a label value.
fn label_problems(labels: &Map<String, Value>) -> Problems {
    let mut problems = Vec::new();
    for (key, value) in labels {
        if let Some(problem) = names::qualified_name_problem(key) {
            problems.push((
                Some(key.clone()),
                format!("the key is not a qualified name: {problem}"),
            ));
        }
        if let Some(value) = value.as_str()
            && let Some(problem) = names::label_value_problem(value)
        {
            problems.push((
                Some(key.clone()),
                format!("{value:?} is not a valid label value: {problem}"),
            ));
        }
    }
    problems
}

/// apimachinery `ValidateAnnotations`: each key, lowercased, a qualified name, and keys and
/// values together at most 256 KiB.
fn annotation_problems(annotations: &Map<String, Value>) -> Problems {
    let mut problems = Vec::new();
    let mut size = 0;
    for (key, value) in annotations {
        if let Some(problem) = names::qualified_name_problem(&key.to_lowercase()) {
            problems.push((
                Some(key.clone()),
                format!("the key is not a qualified name: {problem}"),
            ));
        }
        size += key.len() + value.as_str().map_or(0, str::len);
    }
    if size > ANNOTATIONS_LIMIT {
        problems.push((
            None,
            format!(
                "hold {size} bytes, more than the API server's limit of {ANNOTATIONS_LIMIT} \
                 (256 KiB) for all of an object's annotations"
            ),
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(metadata: Value) -> Vec<String> {
        check(&json!({"apiVersion": "example.io/v1", "kind": "Widget", "metadata": metadata}))
            .into_iter()
            .map(|(lint, path, problem)| format!("{lint} {path}: {problem}"))
            .collect()
    }

    /// What cert-manager, Argo Rollouts and the Prometheus operator objects carry is all
    /// ObjectMeta, and silent.
    #[test]
    fn ordinary_metadata_is_silent() {
        let metadata = json!({"name": "web-tls", "namespace": "apps",
            "labels": {"app.kubernetes.io/name": "web", "tier": ""},
            "annotations": {"cert-manager.io/issuer": "letsencrypt", "Note": "x"},
            "finalizers": ["example.io/cleanup"], "generateName": "web-"});
        assert_eq!(found(metadata), Vec::<String>::new());
    }

    /// apimachinery's validation tests (pkg/api/validation/objectmeta_test.go): names are DNS
    /// subdomains; a generateName may end in `-`, a name may not.
    #[test]
    fn names_and_generated_names_are_dns_subdomains() {
        assert_eq!(
            found(json!({"name": "Web_TLS"})),
            [
                "schema-invalid metadata.name: \"Web_TLS\" is not a valid name: must be a DNS \
              subdomain: lowercase letters, digits, '-' and '.', starting and ending with a \
              letter or digit"
            ]
        );
        assert_eq!(found(json!({"name": "web-"})).len(), 1);
        assert_eq!(found(json!({"generateName": "web-"})), Vec::<String>::new());
        assert_eq!(found(json!({"generateName": "Web-"})).len(), 1);
        assert_eq!(found(json!({"name": "a".repeat(254)})).len(), 1);
        assert_eq!(
            found(json!({"name": 3})),
            ["schema-invalid metadata.name: must be a string"]
        );
    }

    #[test]
    fn labels_annotations_and_finalizers_are_checked_as_the_api_server_does() {
        assert_eq!(
            found(json!({"labels": {"bad key!": "v", "ok": "-bad"}})),
            [
                "schema-invalid metadata.labels[\"bad key!\"]: the key is not a qualified name: \
                 must consist of letters, digits, '-', '_' and '.', and start and end with a \
                 letter or digit",
                "schema-invalid metadata.labels[\"ok\"]: \"-bad\" is not a valid label value: \
                 must consist of letters, digits, '-', '_' and '.', and start and end with a \
                 letter or digit",
            ]
        );
        assert_eq!(
            found(json!({"labels": {"n": 3}})),
            ["schema-invalid metadata.labels[\"n\"]: must be a string"]
        );
        let huge = "x".repeat(ANNOTATIONS_LIMIT);
        assert_eq!(
            found(json!({"annotations": {"a": huge}})),
            [
                "schema-invalid metadata.annotations: hold 262145 bytes, more than the API \
              server's limit of 262144 (256 KiB) for all of an object's annotations"
            ]
        );
        assert_eq!(found(json!({"finalizers": ["a b"]})).len(), 1);
        assert_eq!(found(json!({"finalizers": "x"})).len(), 1);
    }

    /// A field ObjectMeta lacks is dropped when the API server decodes the metadata.
    #[test]
    fn fields_objectmeta_lacks_are_pruned() {
        assert_eq!(
            found(json!({"name": "w", "label": {"a": "b"}})),
            ["pruned-field metadata.label: is not a field of ObjectMeta: the API server drops it"]
        );
        assert_eq!(
            found(json!("w")),
            ["schema-invalid metadata: must be an object"]
        );
    }
}
