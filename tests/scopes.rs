//! A kind's scope where the fleet holds no CRD for it (issue 48): a Kyverno ClusterPolicy placed
//! by a namespaced PropagationPolicy. Without its CRD fedrender cannot know the kind is
//! cluster-scoped: it places the objects as namespaced ones and says so once for the kind. With
//! the CRD handed in by `--crds`, the kind is cluster-scoped as in Karmada, whose namespaced
//! policy selects only objects of its own namespace (karmada pkg/util/helper/policy.go), so
//! nothing is placed and the templates are unplaced.

use crate::common::{self, stderr};

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: clusterpolicies.kyverno.io}
spec:
  group: kyverno.io
  scope: Cluster
  names: {kind: ClusterPolicy, plural: clusterpolicies, singular: clusterpolicy, listKind: ClusterPolicyList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

#[test]
fn a_kind_whose_scope_only_crds_know_is_placed_as_karmada_would_once_they_are_given() {
    let fleet = "testdata/unknown-scope-cluster-policy/input";
    let dir = common::empty_scratch("scopes-crds");
    let crds = dir.join("kyverno-crds.yaml");
    std::fs::write(&crds, CRD).unwrap();

    let without = common::fedrender(&["validate", fleet]);
    assert_eq!(without.status.code(), Some(0), "{without:?}");
    let said = stderr(&without);
    assert_eq!(said.matches("[unknown-scope]").count(), 1, "{said}");
    assert!(
        said.contains("ClusterPolicy.kyverno.io require-labels, disallow-latest:"),
        "{said}"
    );
    let strict = common::fedrender(&["validate", fleet, "--strict"]);
    assert_eq!(strict.status.code(), Some(2), "{strict:?}");

    let with = common::fedrender(&["validate", fleet, "--crds", crds.to_str().unwrap()]);
    let said = stderr(&with);
    assert!(!said.contains("[unknown-scope]"), "{said}");
    assert!(
        said.contains("ClusterPolicy.kyverno.io require-labels is rendered nowhere")
            && said.contains("[unplaced-template]"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
