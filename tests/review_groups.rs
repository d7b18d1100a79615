//! The first screen says who a change touches (issue 50): the Config's `spec.review` groups
//! clusters by label selector and names each group's owners; `diff` opens with the clusters a
//! change touches, the groups they are in (with counts and requests) and those groups' owners
//! alone. With `--base`, the groups and owners are the base's: a pull request cannot route its
//! own approvals. Fleets are written under a scratch directory, one per test.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{empty_scratch, fedrender};

/// The inventory: three production clusters and two staging ones.
const CLUSTERS: &str = "\
apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: prod-1, labels: {env: prod}}\nspec: {}\n---
apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: prod-2, labels: {env: prod}}\nspec: {}\n---
apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: prod-3, labels: {env: prod}}\nspec: {}\n---
apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: stg-1, labels: {env: staging}}\nspec: {}\n---
apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: stg-2, labels: {env: staging}}\nspec: {}\n";

/// The Config both sides start from: a production and a staging group, each with its owners.
const REVIEW: &str = "  review:
    groups:
    - name: production
      clusterSelector: {matchLabels: {env: prod}}
    - name: staging
      clusterSelector:
        matchExpressions: [{key: env, operator: In, values: [staging]}]
    owners:
      production: [\"@org/sre\", \"@org/platform\"]
      staging: [\"@org/qa\", \"@org/platform\"]
";

/// One Deployment per environment, each duplicated to its environment's clusters, requesting
/// 100m CPU and 128Mi per replica.
fn workloads(prod_image: &str, staging_image: &str, staging_replicas: u32) -> String {
    let deployment = |name: &str, env: &str, image: &str, replicas: u32| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  \
             replicas: {replicas}\n  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n    \
             metadata: {{labels: {{app: {name}}}}}\n    spec:\n      containers:\n      - name: {name}\n        \
             image: {image}\n        resources: {{requests: {{cpu: 100m, memory: 128Mi}}}}\n---\n\
             apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  \
             resourceSelectors: [{{apiVersion: apps/v1, kind: Deployment, name: {name}}}]\n  \
             placement: {{clusterAffinity: {{labelSelector: {{matchLabels: {{env: {env}}}}}}}}}\n---\n"
        )
    };
    let namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n\
                     apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: shop}\nspec:\n  \
                     resourceSelectors: [{apiVersion: v1, kind: Namespace, name: shop}]\n  \
                     placement: {clusterAffinity: {labelSelector: {}}}\n---\n";
    namespace.to_string()
        + &deployment("web-prod", "prod", prod_image, 2)
        + &deployment("web-staging", "staging", staging_image, staging_replicas)
}

/// A fleet directory under `root` with its templates and, where `spec` is given, a Config of
/// these spec lines.
fn fleet(root: &Path, side: &str, templates: &str, spec: Option<&str>) -> PathBuf {
    let dir = root.join(side);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("web.yaml"), templates).unwrap();
    if let Some(spec) = spec {
        std::fs::write(
            dir.join("fedrender.yaml"),
            format!("apiVersion: fedrender.io/v1alpha1\nkind: Config\nmetadata: {{name: fleet}}\nspec:\n{spec}"),
        )
        .unwrap();
    }
    dir
}

/// A scratch root with the inventory.
fn root(name: &str) -> PathBuf {
    let root = empty_scratch(&format!("review-groups-{name}"));
    std::fs::write(root.join("clusters.yaml"), CLUSTERS).unwrap();
    root
}

fn diff(root: &Path, head: &Path, base: &Path, format: &str) -> Output {
    let clusters = root.join("clusters.yaml");
    fedrender(&[
        "diff",
        head.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        format,
    ])
}

fn validate(root: &Path, fleet: &Path, flags: &[&str]) -> Output {
    let clusters = root.join("clusters.yaml");
    let mut args = vec![
        "validate",
        fleet.to_str().unwrap(),
        "--clusters",
        clusters.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    fedrender(&args)
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{output:?}"))
}

/// A change to staging alone names staging and staging's owners, not production's; its
/// requests × replicas are staging's, base → head.
#[test]
fn a_change_to_staging_names_only_staging_and_its_owners() {
    let root = root("staging-only");
    let base = fleet(&root, "base", &workloads("web:1", "web:1", 2), Some(REVIEW));
    let head = fleet(&root, "head", &workloads("web:1", "web:2", 3), Some(REVIEW));
    let output = diff(&root, &head, &base, "json");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report = json(&output);
    assert_eq!(
        report["touched"],
        serde_json::json!({
            "clusters": ["stg-1", "stg-2"],
            "groups": [{
                "name": "staging",
                "clusters": 2,
                "clustersTouched": ["stg-1", "stg-2"],
                "objectsChanged": 1,
                "owners": ["@org/platform", "@org/qa"],
                // 100m and 128Mi × 2 replicas on 2 clusters, then × 3.
                "requests": {
                    "cpu": {"base": "400m", "head": "600m"},
                    "memory": {"base": "512Mi", "head": "768Mi"},
                },
            }],
            "owners": ["@org/platform", "@org/qa"],
            "groupsFrom": "base",
            "groupsAt": format!("{}:5", base.join("fedrender.yaml").display()),
            "reviewChanged": false,
        }),
        "{report:#}"
    );
    // The comment opens with it, the owners as mentions GitHub asks (the base's Config).
    let markdown = diff(&root, &head, &base, "markdown");
    let comment = String::from_utf8_lossy(&markdown.stdout);
    assert!(
        comment.starts_with(
            "### fedrender diff\n\n**Touches** stg-1, stg-2 (2 clusters):\n\
             - **staging**: 2 of 2 clusters, 1 object changed; requests CPU 400m → 600m, memory 512Mi → 768Mi\n\n\
             **Owners:** @org/platform, @org/qa\n\n"
        ),
        "{comment}"
    );
    assert!(!comment.contains("@org/sre"), "{comment}");
    let unified = diff(&root, &head, &base, "unified");
    let unified = String::from_utf8_lossy(&unified.stdout);
    assert!(
        unified.starts_with(
            "# touches groups: staging (2 of 2 clusters)\n# owners: @org/platform, @org/qa\n"
        ),
        "{unified}"
    );
    let page = diff(&root, &head, &base, "html");
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(
        page.contains("<p>touches groups: staging (2 of 2 clusters)</p>"),
        "{page}"
    );
    let stat = diff(&root, &head, &base, "stat");
    let stat = String::from_utf8_lossy(&stat.stdout);
    assert!(
        stat.starts_with("# touches groups: staging (2 of 2 clusters)\n# owners: "),
        "{stat}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A pull request that deletes the production group and its owners, while changing production,
/// is still routed to production's owners: the base's groups are the review's.
#[test]
fn a_pull_request_cannot_reroute_its_own_approvals() {
    let root = root("reroute");
    let base = fleet(&root, "base", &workloads("web:1", "web:1", 2), Some(REVIEW));
    let head_review = "  review:\n    groups:\n    - name: staging\n      clusterSelector: {matchLabels: {env: staging}}\n    owners: {staging: [\"@org/qa\"]}\n";
    let head = fleet(
        &root,
        "head",
        &workloads("web:2", "web:1", 2),
        Some(head_review),
    );
    let report = json(&diff(&root, &head, &base, "json"));
    let touched = &report["touched"];
    assert_eq!(touched["groups"][0]["name"], "production", "{touched:#}");
    assert_eq!(
        touched["groups"][0]["clustersTouched"],
        serde_json::json!(["prod-1", "prod-2", "prod-3"])
    );
    assert_eq!(
        touched["owners"],
        serde_json::json!(["@org/platform", "@org/sre"])
    );
    assert_eq!(touched["groupsFrom"], "base");
    assert_eq!(touched["reviewChanged"], true);
    let markdown = diff(&root, &head, &base, "markdown");
    let comment = String::from_utf8_lossy(&markdown.stdout);
    assert!(
        comment.contains("**Owners:** @org/platform, @org/sre\n"),
        "{comment}"
    );
    assert!(
        comment.contains("The change's Config changes `spec.review`: the base's groups and owners apply until it is merged."),
        "{comment}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// Where the base has no Config (the pull request that adopts fedrender), the change's own
/// groups are used and said to be; its owners are code, which pings nobody.
#[test]
fn the_change_s_own_groups_name_their_owners_without_mentioning_them() {
    let root = root("adopting");
    let base = fleet(&root, "base", &workloads("web:1", "web:1", 2), None);
    let head = fleet(&root, "head", &workloads("web:2", "web:1", 2), Some(REVIEW));
    let report = json(&diff(&root, &head, &base, "json"));
    assert_eq!(report["touched"]["groupsFrom"], "change");
    assert_eq!(report["touched"]["groups"][0]["name"], "production");
    let markdown = diff(&root, &head, &base, "markdown");
    let comment = String::from_utf8_lossy(&markdown.stdout);
    assert!(
        comment.contains("**Owners:** `@org/platform`, `@org/sre`\n"),
        "{comment}"
    );
    assert!(
        comment.contains("not a reviewed base's: no one is mentioned."),
        "{comment}"
    );
    // No mention outside a code span.
    let outside_code: String = comment.split('`').step_by(2).collect();
    assert!(!outside_code.contains("@org"), "{comment}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// What `spec.review` may not say is an error at its line, exit 2: an unknown field, an
/// owners key naming no group, a group named twice, an operator a selector does not have.
#[test]
fn a_wrong_review_config_is_an_error_at_its_line() {
    let root = root("wrong");
    let cases: [(&str, &str, &str); 4] = [
        (
            "  review:\n    groups:\n    - name: production\n      clusterSelecter: {matchLabels: {env: prod}}\n",
            "fedrender.yaml:8",
            "clusterSelecter",
        ),
        (
            "  review:\n    groups:\n    - name: production\n      clusterSelector: {matchLabels: {env: prod}}\n    owners:\n      prodution: [\"@org/sre\"]\n",
            "fedrender.yaml:10",
            "\"prodution\" names no group of spec.review.groups (did you mean production?)",
        ),
        (
            "  review:\n    groups:\n    - name: production\n      clusterSelector: {}\n    - name: production\n      clusterSelector: {}\n",
            "fedrender.yaml:9",
            "group production is also spec.review.groups[0]",
        ),
        (
            "  review:\n    groups:\n    - name: production\n      clusterSelector:\n        matchExpressions: [{key: env, operator: Equals, values: [prod]}]\n",
            "fedrender.yaml:",
            "Equals",
        ),
    ];
    for (index, (spec, at, message)) in cases.into_iter().enumerate() {
        let fleet = fleet(
            &root,
            &format!("fleet-{index}"),
            &workloads("web:1", "web:1", 2),
            Some(spec),
        );
        let output = validate(&root, &fleet, &[]);
        assert_eq!(output.status.code(), Some(2), "{spec}: {output:?}");
        let stderr = common::stderr(&output);
        assert!(stderr.contains(at), "{spec}: {stderr}");
        assert!(stderr.contains(message), "{spec}: {stderr}");
        // diff refuses it as well, from either side.
        let base = fleet.clone();
        let refused = diff(&root, &fleet, &base, "json");
        assert_eq!(refused.status.code(), Some(2), "{spec}: {refused:?}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A group that selects no cluster of the inventory is `review-group-empty`: a warning, an
/// error under --strict.
#[test]
fn a_group_that_selects_no_cluster_is_a_lint() {
    let root = root("empty");
    let spec = "  review:\n    groups:\n    - name: production\n      clusterSelector: {matchLabels: {env: prod}}\n    - name: canary\n      clusterSelector: {matchLabels: {ring: canary}}\n    owners: {canary: [\"@org/release\"]}\n";
    let fleet = fleet(&root, "fleet", &workloads("web:1", "web:1", 2), Some(spec));
    let output = validate(&root, &fleet, &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = common::stderr(&output);
    // The one warning: under --strict, it alone fails the run.
    assert!(stderr.contains("1 warning"), "{stderr}");
    assert!(stderr.contains("[review-group-empty]"), "{stderr}");
    assert!(
        stderr.contains("review group canary selects no cluster of the inventory: no change will name it or ask @org/release to approve"),
        "{stderr}"
    );
    assert!(
        stderr.contains("fedrender.yaml:9: review group canary"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("[review-group-empty]").count(),
        1,
        "{stderr}"
    );
    let strict = validate(&root, &fleet, &["--strict"]);
    assert_eq!(strict.status.code(), Some(2), "{strict:?}");
    assert!(common::stderr(&strict).contains("[review-group-empty]"));
    std::fs::remove_dir_all(&root).unwrap();
}
