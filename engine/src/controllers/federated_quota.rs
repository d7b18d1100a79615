//! FederatedResourceQuota: each `spec.staticAssignments` entry becomes a ResourceQuota with the
//! quota's name and namespace and that entry's `hard`, in that cluster only (karmada
//! pkg/controllers/federatedresourcequota/federated_resource_quota_sync_controller.go). No
//! propagation policy places it and no override policy changes it: the sync controller writes
//! the Work itself. Admission is Karmada's validating webhook
//! (pkg/webhook/federatedresourcequota/validating.go).

use crate::edit_distance::Hint;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::api::cluster::Cluster;
use crate::api::karmada::FederatedResourceQuota;
use crate::diagnostics::Located;
use crate::diagnostics::{Diagnostic, FieldLines, Origin, Rejected};
use crate::lint::Lint;
use crate::names;
use crate::object::ObjectKey;
use crate::quantity::{Quantity, ResourceQuantity};

/// A FederatedResourceQuota, admitted.
#[derive(Debug, Clone)]
pub(crate) struct FederatedQuota {
    /// `FederatedResourceQuota shop/compute`, for messages.
    pub id: String,
    pub origin: Origin,
    /// Where each field is written, for messages.
    pub fields: FieldLines,
    /// The ResourceQuota it creates in each assigned cluster.
    pub key: ObjectKey,
    /// One per cluster, the first entry naming it: the sync controller looks a cluster's entry
    /// up from the start of the list (`extractClusterHardResourceList`).
    pub(crate) assignments: Vec<Assignment>,
    /// `spec.overall`: what the namespace's bindings may request in all, which Karmada's
    /// binding webhook enforces behind FederatedQuotaEnforcement (`quota_enforcement`).
    pub(crate) overall: BTreeMap<String, ResourceQuantity>,
}

#[derive(Debug, Clone)]
pub(crate) struct Assignment {
    pub cluster: String,
    /// `spec.staticAssignments[2]`, for messages.
    pub field: String,
    pub hard: BTreeMap<String, ResourceQuantity>,
}

/// The longest FederatedResourceQuota name: the sync controller puts it in a label
/// (`validateFederatedResourceQuotaName`).
const NAME_MAX_LENGTH: usize = 63;

/// Karmada's cluster names leave room for the `karmada-es-` prefix of their execution namespace
/// (karmada pkg/apis/cluster/validation `ValidateClusterName`).
const CLUSTER_NAME_MAX_LENGTH: usize = 48;

/// Validates a FederatedResourceQuota as Karmada's webhook does; duplicate cluster entries,
/// which Karmada accepts and then ignores, are warnings.
pub(crate) fn admit(
    located: &Located<FederatedResourceQuota>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<FederatedQuota, Rejected> {
    let quota = &located.item;
    // A namespaced object without a namespace is created in the client's: `default`, as kubectl
    // does.
    let namespace = quota
        .metadata
        .namespace
        .clone()
        .filter(|namespace| !namespace.is_empty())
        .unwrap_or_else(|| "default".to_string());
    let name = &quota.metadata.name;
    let id = format!("FederatedResourceQuota {namespace}/{name}");
    let mut errors = Vec::new();
    let at = |field: &str| Some(located.fields.origin(&located.origin, field));
    let mut error = |field: &str, message: String| {
        errors.push(Diagnostic::error(
            at(field),
            format!("{id}: {field}: {message}"),
        ));
    };
    if name.is_empty() {
        error("metadata.name", "is required".to_string());
    } else if let Some(problem) = names::dns_subdomain_problem(name) {
        error("metadata.name", problem);
    } else if name.len() > NAME_MAX_LENGTH {
        error(
            "metadata.name",
            format!("must be no more than {NAME_MAX_LENGTH} characters"),
        );
    }
    if let Some(problem) = names::dns_label_problem(&namespace) {
        error("metadata.namespace", problem);
    }
    let spec = &quota.spec;
    for (field, problem) in resource_list_problems("spec.overall", &spec.overall) {
        error(&field, problem);
    }
    let entries = spec.static_assignments.as_deref().unwrap_or_default();
    let mut assignments: Vec<Assignment> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let field = format!("spec.staticAssignments[{index}]");
        if let Some(problem) = cluster_name_problem(&entry.cluster_name) {
            error(&format!("{field}.clusterName"), problem);
        }
        for (hard_field, problem) in resource_list_problems(&format!("{field}.hard"), &entry.hard) {
            error(&hard_field, problem);
        }
        for resource in entry.hard.keys() {
            if !spec.overall.contains_key(resource) {
                error(
                    &format!("{field}.hard[{resource}]"),
                    "is not in spec.overall".to_string(),
                );
            }
        }
        match assignments
            .iter()
            .find(|assignment| assignment.cluster == entry.cluster_name)
        {
            Some(first) => warnings.push(Diagnostic::warning(
                Lint::IgnoredField,
                at(&field),
                format!(
                    "{id}: {field}: cluster {:?} is already assigned at {}; Karmada uses the \
                     first entry and ignores this one",
                    entry.cluster_name, first.field
                ),
            )),
            None => assignments.push(Assignment {
                cluster: entry.cluster_name.clone(),
                field,
                hard: entry.hard.clone(),
            }),
        }
    }
    // Every entry counts towards the total, the ignored duplicates too
    // (`calculateAssignmentForResourceKey`).
    for (resource, overall) in &spec.overall {
        let assigned = entries
            .iter()
            .filter_map(|entry| entry.hard.get(resource))
            .fold(Quantity::ZERO, |sum, quantity| {
                sum.saturating_add(quantity.value)
            });
        if overall.value < assigned {
            error(
                &format!("spec.overall[{resource}]"),
                format!(
                    "{} is less than the static assignments' total of {assigned}",
                    overall.written
                ),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    Ok(FederatedQuota {
        id,
        origin: located.origin.clone(),
        fields: located.fields.clone(),
        key: ObjectKey {
            group: String::new(),
            kind: "ResourceQuota".to_string(),
            namespace,
            name: name.clone(),
        },
        assignments,
        overall: spec.overall.clone(),
    })
}

impl FederatedQuota {
    /// The entries whose cluster is in the inventory, in the order written.
    pub(crate) fn assigned<'q>(
        &'q self,
        clusters: &'q BTreeMap<&str, usize>,
    ) -> impl Iterator<Item = (&'q Assignment, usize)> + 'q {
        self.assignments.iter().filter_map(|assignment| {
            clusters
                .get(assignment.cluster.as_str())
                .map(|&position| (assignment, position))
        })
    }

    /// The ResourceQuota for one assigned cluster, as the sync controller builds it: only
    /// name, namespace and `spec.hard`, each quantity as Kubernetes writes it back after
    /// decoding it, and an empty `hard` left out (`omitempty`).
    pub(crate) fn resource_quota(&self, assignment: &Assignment) -> Value {
        let mut spec = Map::new();
        if !assignment.hard.is_empty() {
            let hard: Map<String, Value> = assignment
                .hard
                .iter()
                .map(|(resource, quantity)| {
                    (resource.clone(), Value::String(quantity.written_back()))
                })
                .collect();
            spec.insert("hard".to_string(), Value::Object(hard));
        }
        json!({
            "apiVersion": "v1",
            "kind": "ResourceQuota",
            "metadata": {"name": self.key.name, "namespace": self.key.namespace},
            "spec": spec,
        })
    }

    /// Entries naming a cluster the inventory does not have: the sync controller only builds
    /// Works for clusters that exist, so they render nothing.
    pub(crate) fn inventory_warnings(&self, clusters: &[Cluster]) -> Vec<Diagnostic> {
        self.assignments
            .iter()
            .filter(|assignment| {
                !clusters
                    .iter()
                    .any(|cluster| cluster.name() == assignment.cluster)
            })
            .map(|assignment| {
                let hint = crate::edit_distance::hint(
                    crate::edit_distance::nearest_name(
                        &assignment.cluster,
                        clusters.iter().map(Cluster::name),
                    ),
                    Hint::InParenthesesQuoted,
                );
                let field = format!("{}.clusterName", assignment.field);
                Diagnostic::warning(
                    Lint::UnknownCluster,
                    Some(self.fields.origin(&self.origin, &field)),
                    format!(
                        "{}: {}.clusterName: cluster {:?} is not in the inventory{hint}; no \
                         {} is rendered for it",
                        self.id, assignment.field, assignment.cluster, self.key
                    ),
                )
                .about_object(&self.key)
                .on_cluster(assignment.cluster.as_str())
            })
            .collect()
    }
}

fn cluster_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("must be not empty".to_string());
    }
    if name.len() > CLUSTER_NAME_MAX_LENGTH {
        return Some(format!(
            "must be no more than {CLUSTER_NAME_MAX_LENGTH} characters"
        ));
    }
    names::dns_label_problem(name)
}

/// Karmada's `validateResourceList`: every resource name is one a ResourceQuota can limit, and
/// every quantity is non-negative and whole where the resource counts objects.
fn resource_list_problems(
    field: &str,
    list: &BTreeMap<String, ResourceQuantity>,
) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    for (resource, quantity) in list {
        let field = format!("{field}[{resource}]");
        if let Some(problem) = quota_resource_name_problem(resource) {
            problems.push((field.clone(), problem));
        }
        if quantity.value < Quantity::ZERO {
            problems.push((
                field.clone(),
                format!("{} must be greater than or equal to 0", quantity.written),
            ));
        }
        if counts_objects(resource) && quantity.value.milli_value_ceil() % 1000 != 0 {
            problems.push((field, format!("{} must be an integer", quantity.written)));
        }
    }
    problems
}

/// What `ValidateResourceQuotaResourceName` accepts (karmada pkg/util/lifted/corevalidation.go,
/// lifted from Kubernetes): a qualified name, and without a `/` one of the standard resources
/// a quota tracks.
fn quota_resource_name_problem(resource: &str) -> Option<String> {
    if let Some(problem) = names::qualified_name_problem(resource) {
        return Some(format!("resource name {resource:?}: {problem}"));
    }
    if resource.contains('/') {
        return None;
    }
    let huge_pages =
        resource.starts_with("hugepages-") || resource.starts_with("requests.hugepages-");
    let standard = huge_pages || STANDARD_RESOURCES.contains(&resource);
    // Kubernetes' `standardQuotaResources` are the standard resources less `storage`.
    let tracked = standard && resource != "storage";
    match (standard, tracked) {
        (_, true) => None,
        (true, false) => Some(format!(
            "resource name {resource:?} must be a standard resource for quota"
        )),
        (false, false) => {
            let tracked = STANDARD_RESOURCES.iter().filter(|&&name| name != "storage");
            let hint = crate::edit_distance::hint(
                crate::edit_distance::nearest(resource, tracked.copied()),
                Hint::InParenthesesQuoted,
            );
            Some(format!(
                "resource name {resource:?} must be a standard resource for quota or fully \
                 qualified{hint}"
            ))
        }
    }
}

/// Kubernetes' `standardResources` (pkg/apis/core/helper/helpers.go, as lifted by Karmada).
const STANDARD_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// `IsIntegerResourceName`: the object counts, and extended resources (`nvidia.com/gpu`,
/// `count/deployments.apps`) — a name with a `/` outside `kubernetes.io/`, not starting with
/// `requests.`, that stays a qualified name with `requests.` in front.
fn counts_objects(resource: &str) -> bool {
    const OBJECT_COUNTS: &[&str] = &[
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "services.nodeports",
        "services.loadbalancers",
    ];
    let native = !resource.contains('/') || resource.contains("kubernetes.io/");
    let extended = !native
        && !resource.starts_with("requests.")
        && names::qualified_name_problem(&format!("requests.{resource}")).is_none();
    OBJECT_COUNTS.contains(&resource) || extended
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn admitted(spec: Value) -> (Result<FederatedQuota, Vec<String>>, Vec<String>) {
        let item: FederatedResourceQuota = serde_json::from_value(json!({
            "apiVersion": "policy.karmada.io/v1alpha1",
            "kind": "FederatedResourceQuota",
            "metadata": {"name": "team", "namespace": "shop"},
            "spec": spec,
        }))
        .unwrap();
        let mut warnings = Vec::new();
        let located = Located {
            origin: Origin::new("q.yaml", 0, 1),
            item,
            fields: crate::diagnostics::FieldLines::default(),
        };
        let result = admit(&located, &mut warnings).map_err(|rejected| {
            rejected
                .errors
                .into_iter()
                .map(|error| error.message)
                .collect()
        });
        let warnings = warnings.into_iter().map(|w| w.message).collect();
        (result, warnings)
    }

    fn errors(spec: Value) -> Vec<String> {
        match admitted(spec).0 {
            Ok(_) => panic!("admitted"),
            Err(errors) => errors,
        }
    }

    // karmada validating_test.go Test_validateOverallAndAssignments: 10 cpu and 10Gi cover
    // 1 + 1.5 cpu and 1Gi + 2Gi; an overall below the sum, or an assigned resource the overall
    // does not list, is refused.
    #[test]
    fn the_overall_covers_the_sum_of_the_assignments() {
        let assignments = json!([
            {"clusterName": "m1", "hard": {"cpu": "1", "memory": "1Gi"}},
            {"clusterName": "m2", "hard": {"cpu": "1.5", "memory": "2Gi"}},
        ]);
        let (ok, _) = admitted(json!({
            "overall": {"cpu": "10", "memory": "10Gi"},
            "staticAssignments": assignments,
        }));
        assert_eq!(ok.unwrap().assignments.len(), 2);
        let low = errors(json!({
            "overall": {"cpu": "2", "memory": "3Gi"},
            "staticAssignments": assignments,
        }));
        assert_eq!(
            low,
            [
                "FederatedResourceQuota shop/team: spec.overall[cpu]: 2 is less than the static assignments' total of 2.5"
            ]
        );
        let missing = errors(json!({
            "overall": {"cpu": "10"},
            "staticAssignments": assignments,
        }));
        assert!(
            missing
                .iter()
                .any(|e| e
                    .ends_with("spec.staticAssignments[1].hard[memory]: is not in spec.overall")),
            "{missing:?}"
        );
    }

    // karmada validating.go validateResourceList, with lifted corevalidation.go
    // ValidateResourceQuotaResourceName and ValidateResourceQuantityValue.
    #[test]
    fn resource_names_and_values_follow_the_quota_rules() {
        let found = errors(json!({"overall": {
            "cpu": "-1",
            "pods": "1.5",
            "storage": "1Gi",
            "memorry": "1Gi",
            "nvidia.com/gpu": "500m",
        }}));
        let expected = [
            "spec.overall[cpu]: -1 must be greater than or equal to 0",
            "spec.overall[memorry]: resource name \"memorry\" must be a standard resource for quota or fully qualified (did you mean \"memory\"?)",
            "spec.overall[nvidia.com/gpu]: 500m must be an integer",
            "spec.overall[pods]: 1.5 must be an integer",
            "spec.overall[storage]: resource name \"storage\" must be a standard resource for quota",
            // A negative overall is also below the empty total, and Karmada says so too.
            "spec.overall[cpu]: -1 is less than the static assignments' total of 0",
        ];
        assert_eq!(found.len(), expected.len(), "{found:?}");
        for (error, expected) in found.iter().zip(expected) {
            assert!(error.ends_with(expected), "{error}");
        }
        // Accepted: huge pages, object counts and requests of extended resources, a
        // `requests.` extended resource being no integer resource.
        let (ok, _) = admitted(json!({"overall": {
            "hugepages-2Mi": "1Gi",
            "count/deployments.apps": 3,
            "requests.nvidia.com/gpu": "500m",
            "services.loadbalancers": "2",
        }}));
        assert!(ok.is_ok(), "{ok:?}");
    }

    #[test]
    fn only_object_counts_and_extended_resources_must_be_whole() {
        for resource in ["pods", "configmaps", "nvidia.com/gpu", "count/jobs.batch"] {
            assert!(counts_objects(resource), "{resource}");
        }
        for resource in [
            "cpu",
            "requests.nvidia.com/gpu",
            "kubernetes.io/x",
            "hugepages-1Gi",
        ] {
            assert!(!counts_objects(resource), "{resource}");
        }
    }

    // karmada validating_test.go Handle_InvalidClusterName_ClusterNameInvalid and
    // Test_validateFederatedResourceQuotaName; cluster/validation ValidateClusterName's 48.
    #[test]
    fn cluster_names_and_the_quota_name_are_checked() {
        let found = errors(json!({
            "overall": {"cpu": "2"},
            "staticAssignments": [
                {"clusterName": "", "hard": {}},
                {"clusterName": "a".repeat(49), "hard": {}},
                {"clusterName": "Member_1", "hard": {}},
            ],
        }));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].ends_with("spec.staticAssignments[0].clusterName: must be not empty"));
        assert!(found[1].ends_with("must be no more than 48 characters"));
        assert!(found[2].contains("spec.staticAssignments[2].clusterName: must consist"));
        let item: FederatedResourceQuota = serde_json::from_value(json!({
            "apiVersion": "policy.karmada.io/v1alpha1",
            "kind": "FederatedResourceQuota",
            "metadata": {"name": "q".repeat(64)},
            "spec": {"overall": {}},
        }))
        .unwrap();
        let located = Located {
            origin: Origin::new("q.yaml", 0, 1),
            item,
            fields: crate::diagnostics::FieldLines::default(),
        };
        let rejected = admit(&located, &mut Vec::new()).unwrap_err();
        assert!(
            rejected.errors[0]
                .message
                .ends_with("metadata.name: must be no more than 63 characters"),
            "{rejected}"
        );
    }

    // karmada sync controller extractClusterHardResourceList (TestExtractClusterHardResourceList
    // "Multiple static assignments"): a cluster's first entry wins; the webhook still adds every
    // entry to the total.
    #[test]
    fn the_first_entry_for_a_cluster_wins() {
        let (ok, warnings) = admitted(json!({
            "overall": {"cpu": "3"},
            "staticAssignments": [
                {"clusterName": "m1", "hard": {"cpu": "1"}},
                {"clusterName": "m1", "hard": {"cpu": "2"}},
            ],
        }));
        let quota = ok.unwrap();
        assert_eq!(quota.assignments.len(), 1);
        assert_eq!(quota.assignments[0].hard["cpu"].written, "1");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("spec.staticAssignments[1]: cluster \"m1\" is already assigned at spec.staticAssignments[0]"));
        let over = errors(json!({
            "overall": {"cpu": "2"},
            "staticAssignments": [
                {"clusterName": "m1", "hard": {"cpu": "1"}},
                {"clusterName": "m1", "hard": {"cpu": "2"}},
            ],
        }));
        assert!(over[0].ends_with("total of 3"), "{over:?}");
    }

    // karmada sync controller buildWorks (TestBuildWorks): a v1 ResourceQuota with the quota's
    // name and namespace and the entry's hard list, quantities as `Quantity.String()` writes
    // them, and `hard` omitted when empty.
    #[test]
    fn the_resource_quota_is_the_entry_hard_list_under_the_quota_name() {
        let (ok, _) = admitted(json!({
            "overall": {"cpu": "10", "memory": "10Gi", "pods": 100},
            "staticAssignments": [
                {"clusterName": "m1", "hard": {"pods": 10, "memory": "1024Mi", "cpu": "1.5"}},
                {"clusterName": "m2", "hard": {}},
            ],
        }));
        let quota = ok.unwrap();
        assert_eq!(
            quota.resource_quota(&quota.assignments[0]),
            json!({
                "apiVersion": "v1",
                "kind": "ResourceQuota",
                "metadata": {"name": "team", "namespace": "shop"},
                "spec": {"hard": {"cpu": "1500m", "memory": "1Gi", "pods": "10"}},
            })
        );
        assert_eq!(
            quota.resource_quota(&quota.assignments[1])["spec"],
            json!({})
        );
    }

    /// A whole number written as a float reaches Karmada as Go's JSON writes it (`2`,
    /// `1000000000`): apimachinery `Quantity.UnmarshalJSON` parses it, and the CRD's
    /// int-or-string schema takes a whole float64 as an integer (kube-openapi `validate`); a
    /// fraction stays refused by the schema.
    #[test]
    fn whole_numbers_written_as_floats_are_quantities() {
        let (ok, _) = admitted(json!({
            "overall": {"cpu": 2.0, "memory": 1e9},
            "staticAssignments": [{"clusterName": "m1", "hard": {"cpu": 2.0, "memory": 1e9}}],
        }));
        let quota = ok.unwrap();
        assert_eq!(
            quota.resource_quota(&quota.assignments[0])["spec"]["hard"],
            json!({"cpu": "2", "memory": "1G"})
        );
        let refused = serde_json::from_value::<FederatedResourceQuota>(json!({
            "apiVersion": "policy.karmada.io/v1alpha1",
            "kind": "FederatedResourceQuota",
            "metadata": {"name": "team", "namespace": "shop"},
            "spec": {"overall": {"cpu": 2.5}},
        }))
        .unwrap_err();
        assert!(
            refused.to_string().contains("is not an integer"),
            "{refused}"
        );
    }
}
