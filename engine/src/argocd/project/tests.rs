use super::*;
use crate::argocd::api::project::AppProjectSpec;

fn project(spec: AppProjectSpec) -> AppProject {
    let mut project = AppProject {
        spec,
        ..Default::default()
    };
    project.metadata.name = "team".to_string();
    project
}

fn sources(patterns: &[&str]) -> AppProject {
    project(AppProjectSpec {
        source_repos: patterns.iter().map(|p| p.to_string()).collect(),
        ..Default::default()
    })
}

fn source(url: &str) -> ApplicationSource {
    ApplicationSource {
        repo_url: url.to_string(),
        ..Default::default()
    }
}

fn dest(server: &str, namespace: &str, name: &str) -> ApplicationDestination {
    ApplicationDestination {
        server: server.to_string(),
        namespace: namespace.to_string(),
        name: name.to_string(),
    }
}

fn cluster(name: &str, server: &str) -> ArgoCluster {
    ArgoCluster {
        name: name.to_string(),
        server: server.to_string(),
        ..ArgoCluster::in_cluster()
    }
}

// argo-cd types_test.go TestAppProject_IsSourcePermitted and TestAppProject_IsNegatedSourcePermitted,
// every row.
#[test]
fn upstream_source_rows() {
    let rows: &[(&[&str], &str, bool)] = &[
        (&["*"], "https://github.com/argoproj/test.git", true),
        (
            &["https://github.com/argoproj/test.git"],
            "https://github.com/argoproj/test.git",
            true,
        ),
        (
            &["ssh://git@GITHUB.com:argoproj/test"],
            "ssh://git@github.com:argoproj/test",
            true,
        ),
        (
            &["https://github.com/argoproj/*"],
            "https://github.com/argoproj/argoproj.git",
            true,
        ),
        (
            &[
                "https://github.com/test1/test.git",
                "https://github.com/test2/test.git",
            ],
            "https://github.com/test2/test.git",
            true,
        ),
        (
            &["https://github.com/argoproj/test1.git"],
            "https://github.com/argoproj/test2.git",
            false,
        ),
        (
            &["https://github.com/argoproj/*.git"],
            "https://github.com/argoproj1/test2.git",
            false,
        ),
        (
            &["https://github.com/argoproj/foo"],
            "https://github.com/argoproj/foo1",
            false,
        ),
        (
            &["https://gitlab.com/group/*"],
            "https://gitlab.com/group/repo/owner",
            false,
        ),
        (
            &["https://gitlab.com/group/*/*"],
            "https://gitlab.com/group/repo/owner",
            true,
        ),
        (
            &["https://gitlab.com/group/*/*/*"],
            "https://gitlab.com/group/sub-group/repo/owner",
            true,
        ),
        (
            &["https://gitlab.com/group/**"],
            "https://gitlab.com/group/sub-group/repo/owner",
            true,
        ),
        // Negated.
        (
            &["!https://github.com/argoproj/test.git"],
            "https://github.com/argoproj/test.git",
            false,
        ),
        (
            &["!ssh://git@GITHUB.com:argoproj/test"],
            "ssh://git@github.com:argoproj/test",
            false,
        ),
        (
            &["!https://github.com/argoproj/*"],
            "https://github.com/argoproj/argoproj.git",
            false,
        ),
        (
            &[
                "https://github.com/test1/test.git",
                "!https://github.com/test2/test.git",
            ],
            "https://github.com/test2/test.git",
            false,
        ),
        (
            &["!https://github.com/argoproj/foo*"],
            "https://github.com/argoproj/foo1",
            false,
        ),
        (
            &["!https://gitlab.com/group/*/*"],
            "https://gitlab.com/group/repo/owner",
            false,
        ),
        (
            &["!https://gitlab.com/group/*/*/*"],
            "https://gitlab.com/group/sub-group/repo/owner",
            false,
        ),
        (
            &["!https://gitlab.com/group/**"],
            "https://gitlab.com/group/sub-group/repo/owner",
            false,
        ),
        (&["*"], "https://github.com/argoproj/test.git", true),
        (
            &["https://github.com/argoproj/test1.git", "*"],
            "https://github.com/argoproj/test2.git",
            true,
        ),
        (
            &["!https://github.com/argoproj/*.git", "*"],
            "https://github.com/argoproj1/test2.git",
            true,
        ),
    ];
    for (patterns, url, permitted) in rows {
        assert_eq!(
            is_source_permitted(&sources(patterns), &source(url)),
            *permitted,
            "{patterns:?} {url}"
        );
    }
}

fn destination_permitted(
    project_destinations: Vec<ApplicationDestination>,
    app: &ApplicationDestination,
) -> bool {
    let project = project(AppProjectSpec {
        destinations: project_destinations,
        ..Default::default()
    });
    is_destination_permitted(
        &project,
        &cluster(&app.name, &app.server),
        &app.namespace,
        &[],
    )
}

// Go's net/url escapes a path holding braces, so a brace pattern in sourceRepos matches no
// repository in Argo CD; an ordinary glob is kept as written.
#[test]
fn source_repo_patterns_are_compared_as_go_round_trips_them() {
    assert_eq!(
        url_form("https://github.com/Org/*.git"),
        "https://github.com/org/*"
    );
    assert_eq!(
        url_form("https://github.com/org/{a,b}"),
        "https://github.com/org/%7Ba,b%7D"
    );
    assert!(!is_source_permitted(
        &sources(&["https://github.com/org/{a,b}"]),
        &source("https://github.com/org/a")
    ));
    assert!(is_source_permitted(
        &sources(&["https://github.com/org/[ab]"]),
        &source("https://github.com/org/a")
    ));
    assert_eq!(
        url_form("git@github.com:org/repo.git"),
        "git@github.com/org/repo"
    );
}

// argo-cd types_test.go TestAppProject_IsDestinationPermitted and
// TestAppProject_IsNegatedDestinationPermitted, every row.
#[test]
fn upstream_destination_rows() {
    let k = "https://kubernetes.default.svc";
    type Row = (Vec<ApplicationDestination>, ApplicationDestination, bool);
    let rows: Vec<Row> = vec![
        (vec![dest(k, "default", "")], dest(k, "default", ""), true),
        (
            vec![dest(k, "default", "")],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![dest("https://my-cluster", "default", "")],
            dest(k, "default", ""),
            false,
        ),
        (vec![dest(k, "*", "")], dest(k, "kube-system", ""), true),
        (
            vec![dest("https://*.default.svc", "default", "")],
            dest(k, "default", ""),
            true,
        ),
        (
            vec![dest("https://team1-*", "default", "")],
            dest("https://test2-dev-cluster", "default", ""),
            false,
        ),
        (vec![dest(k, "test-*", "")], dest(k, "test-foo", ""), true),
        (vec![dest(k, "test-*", "")], dest(k, "test", ""), false),
        (vec![dest("*", "*", "")], dest(k, "test", ""), true),
        (vec![dest("", "*", "test")], dest("", "test", "test"), true),
        (
            vec![dest("", "*", "test2")],
            dest("", "test", "test"),
            false,
        ),
        (
            vec![
                dest(k, "!{kube-system,argocd}", "host-cluster"),
                dest(
                    "https://eks-cluster-endpoint.ap-southeast-1.eks.amazonaws.com",
                    "*",
                    "destination-cluster-01",
                ),
            ],
            dest(
                "https://eks-cluster-endpoint.ap-southeast-1.eks.amazonaws.com",
                "kube-system",
                "",
            ),
            true,
        ),
        // Negated.
        (
            vec![dest("!https://kubernetes.default.svc", "default", "")],
            dest(k, "default", ""),
            false,
        ),
        (
            vec![dest(k, "!default", "")],
            dest(k, "kube-system", ""),
            true,
        ),
        (
            vec![dest("!https://my-cluster", "default", "")],
            dest(k, "default", ""),
            true,
        ),
        (
            vec![dest("!https://kubernetes.default.svc", "*", "")],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![dest("!https://*.default.svc", "default", "")],
            dest(k, "default", ""),
            false,
        ),
        (
            vec![dest("!https://team1-*", "default", "")],
            dest("https://test2-dev-cluster", "default", ""),
            true,
        ),
        (vec![dest(k, "!test-*", "")], dest(k, "test-foo", ""), false),
        (vec![dest(k, "!test-*", "")], dest(k, "test", ""), true),
        (
            vec![dest("", "*", "!test")],
            dest("", "test", "test"),
            false,
        ),
        (
            vec![dest("", "*", "!test2")],
            dest("", "test", "test"),
            true,
        ),
        (
            vec![dest("*", "kube-system", ""), dest("*", "!kube-system", "")],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![dest("*", "*", ""), dest("*", "!kube-system", "")],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![
                dest(k, "*", ""),
                dest("!https://kubernetes.default.svc", "*", ""),
            ],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![
                dest("*", "*", ""),
                dest("!https://kubernetes.default.svc", "kube-system", ""),
            ],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![
                dest("*", "*", ""),
                dest("!https://kubernetes.default.svc", "kube-system", ""),
                dest("*", "!kube-system", ""),
            ],
            dest(k, "kube-system", ""),
            false,
        ),
        (
            vec![
                dest("*", "*", ""),
                dest("!https://kubernetes.default.svc", "kube-system", ""),
                dest("*", "!kube-system", ""),
            ],
            dest(k, "default", ""),
            true,
        ),
        (
            vec![
                dest("*", "*", ""),
                dest("!https://kubernetes.default.svc", "kube-system", ""),
                dest("*", "!kube-system", ""),
            ],
            dest("https://test-dev-cluster", "kube-system", ""),
            false,
        ),
        (
            vec![dest("", "*", "test"), dest("", "*", "!test")],
            dest("", "test", "test"),
            false,
        ),
        (
            vec![
                dest("*", "test", ""),
                dest("!https://test-server", "other", ""),
            ],
            dest("https://test-server", "test", ""),
            true,
        ),
        (
            vec![
                dest("*", "*", ""),
                dest("https://test-server", "!other", ""),
            ],
            dest("https://other-test-server", "other", ""),
            true,
        ),
    ];
    for (index, (project_destinations, app, permitted)) in rows.into_iter().enumerate() {
        assert_eq!(
            destination_permitted(project_destinations, &app),
            permitted,
            "row {index}: {app:?}"
        );
    }
}

// argo-cd types_test.go TestAppProject_IsDestinationPermitted_PermitOnlyProjectScopedClusters:
// a matching destination is permitted only on a cluster scoped to the project.
#[test]
fn project_scoped_clusters_only() {
    let mut team = project(AppProjectSpec {
        destinations: vec![dest("*", "*", "")],
        permit_only_project_scoped_clusters: true,
        ..Default::default()
    });
    team.metadata.name = "team".to_string();
    let mut scoped = cluster("scoped", "https://scoped");
    scoped.project = Some("team".to_string());
    let unscoped = cluster("other", "https://other");
    let clusters = [scoped.clone(), unscoped.clone()];
    assert!(is_destination_permitted(&team, &scoped, "ns", &clusters));
    assert!(!is_destination_permitted(&team, &unscoped, "ns", &clusters));
}

// argo-cd types_test.go TestGlobMatch, every row.
#[test]
fn upstream_glob_match_rows() {
    let rows = [
        ("foo", "foo", false, true),
        ("foo*", "foobar", false, true),
        ("foo*", "bar", false, false),
        ("*", "anything", false, true),
        ("!foo", "foo", true, false),
        ("!foo", "bar", true, true),
        ("!foo", "foo", false, false),
        ("!foo", "!foo", false, true),
    ];
    for (pattern, value, negation, expected) in rows {
        assert_eq!(
            glob_match(pattern, value, negation, &[]),
            expected,
            "{pattern} {value}"
        );
    }
}

// argo-cd types_test.go TestAppProject_IsGroupKindPermitted: a nil namespace whitelist permits
// every namespaced kind, an empty one none; cluster-scoped kinds need the whitelist; the
// blacklists win.
#[test]
fn group_kinds_as_upstream_permits_them() {
    let gk = |group: &str, kind: &str| GroupKind {
        group: group.to_string(),
        kind: kind.to_string(),
    };
    let item = |group: &str, kind: &str, name: &str| ClusterResourceRestrictionItem {
        group: group.to_string(),
        kind: kind.to_string(),
        name: name.to_string(),
    };
    let open = project(AppProjectSpec::default());
    assert!(is_group_kind_permitted(
        &open,
        "apps",
        "Deployment",
        "web",
        true
    ));
    assert!(!is_group_kind_permitted(
        &open,
        "",
        "Namespace",
        "web",
        false
    ));
    let denied = project(AppProjectSpec {
        namespace_resource_whitelist: Some(vec![]),
        ..Default::default()
    });
    assert!(!is_group_kind_permitted(
        &denied,
        "apps",
        "Deployment",
        "web",
        true
    ));
    let listed = project(AppProjectSpec {
        namespace_resource_whitelist: Some(vec![gk("apps", "*")]),
        namespace_resource_blacklist: vec![gk("apps", "DaemonSet")],
        cluster_resource_whitelist: vec![item("*", "*", "")],
        cluster_resource_blacklist: vec![item("", "Namespace", "kube-*")],
        ..Default::default()
    });
    assert!(is_group_kind_permitted(
        &listed,
        "apps",
        "Deployment",
        "web",
        true
    ));
    assert!(!is_group_kind_permitted(
        &listed,
        "apps",
        "DaemonSet",
        "web",
        true
    ));
    assert!(!is_group_kind_permitted(
        &listed,
        "",
        "ConfigMap",
        "web",
        true
    ));
    assert!(is_group_kind_permitted(
        &listed,
        "",
        "Namespace",
        "web",
        false
    ));
    assert!(!is_group_kind_permitted(
        &listed,
        "",
        "Namespace",
        "kube-public",
        false
    ));
    assert!(is_group_kind_permitted(
        &default_project(),
        "",
        "Namespace",
        "x",
        false
    ));
}

fn app(project: &str, repo: &str, destination: ApplicationDestination) -> Application {
    let mut app = Application::default();
    app.metadata.name = "web-prod".to_string();
    app.spec.project = project.to_string();
    app.spec.source = Some(ApplicationSource {
        repo_url: repo.to_string(),
        path: "apps/web".to_string(),
        ..Default::default()
    });
    app.spec.destination = destination;
    app
}

fn refusals(app: &Application, projects: &[AppProject], clusters: &[ArgoCluster]) -> Vec<String> {
    check_application(app, projects, clusters, None)
        .unwrap_err()
        .into_iter()
        .map(|d| d.message)
        .collect()
}

#[test]
fn an_application_is_deployed_to_the_one_cluster_its_destination_names() {
    let clusters = [
        ArgoCluster::in_cluster(),
        cluster("prod", "https://prod.example.com"),
    ];
    let repo = "https://github.com/org/fleet.git";
    let by_name = app("", repo, dest("", "web", "prod"));
    assert_eq!(
        check_application(&by_name, &[], &clusters, None)
            .unwrap()
            .name,
        "prod"
    );
    let by_server = app(
        "default",
        repo,
        dest("https://prod.example.com/", "web", ""),
    );
    assert_eq!(
        check_application(&by_server, &[], &clusters, None)
            .unwrap()
            .name,
        "prod"
    );
}

#[test]
fn every_refusal_names_the_application() {
    let clusters = [
        ArgoCluster::in_cluster(),
        cluster("prod", "https://prod.example.com"),
    ];
    let repo = "https://github.com/org/fleet.git";
    assert_eq!(
        refusals(
            &app("payments", repo, dest("", "web", "prod")),
            &[],
            &clusters
        ),
        [
            "Application argocd/web-prod: application references project payments which does not exist; Argo CD does not deploy it"
        ]
    );
    assert_eq!(
        refusals(&app("", repo, dest("", "web", "staging")), &[], &clusters),
        [
            "Application argocd/web-prod: application destination spec is invalid: there are no clusters with this name: staging; Argo CD does not deploy it"
        ]
    );
    assert_eq!(
        refusals(
            &app("", repo, dest("https://staging", "web", "")),
            &[],
            &clusters
        ),
        [
            "Application argocd/web-prod: application destination spec is invalid: error getting cluster by server \"https://staging\": no cluster of the inventory has this server; Argo CD does not deploy it"
        ]
    );
    assert_eq!(
        refusals(
            &app("", repo, dest("https://prod.example.com", "web", "prod")),
            &[],
            &clusters
        ),
        [
            "Application argocd/web-prod: application destination spec is invalid: application destination can't have both name and server defined: prod https://prod.example.com; Argo CD does not deploy it"
        ]
    );
    assert_eq!(
        refusals(&app("", repo, dest("", "web", "")), &[], &clusters),
        [
            "Application argocd/web-prod: application destination spec is invalid: Destination server missing from app spec; Argo CD does not deploy it"
        ]
    );
    let twice = [cluster("prod", "https://a"), cluster("prod", "https://b")];
    assert_eq!(
        refusals(&app("", repo, dest("", "web", "prod")), &[], &twice),
        [
            "Application argocd/web-prod: application destination spec is invalid: there are 2 clusters with the same name: [https://a https://b]; Argo CD does not deploy it"
        ]
    );
    let mut team = project(AppProjectSpec {
        source_repos: vec!["https://github.com/org/*".to_string()],
        destinations: vec![dest("", "web-*", "prod")],
        ..Default::default()
    });
    team.metadata.name = "team".to_string();
    let projects = [team];
    assert_eq!(
        refusals(
            &app(
                "team",
                "https://github.com/other/x",
                dest("", "kube-system", "prod")
            ),
            &projects,
            &clusters
        ),
        [
            "Application argocd/web-prod: application repo https://github.com/other/x is not permitted in project 'team'; Argo CD does not deploy it",
            "Application argocd/web-prod: application destination server 'prod' and namespace 'kube-system' do not match any of the allowed destinations in project 'team'; Argo CD does not deploy it",
        ]
    );
    assert!(
        check_application(
            &app("team", repo, dest("", "web-a", "prod")),
            &projects,
            &clusters,
            None
        )
        .is_ok()
    );
    let mut no_path = app("", repo, dest("", "web", "prod"));
    no_path.spec.source.as_mut().unwrap().path.clear();
    assert_eq!(
        refusals(&no_path, &[], &clusters),
        [
            "Application argocd/web-prod: spec.source.repoURL and either spec.source.path or spec.source.chart are required; Argo CD does not deploy it"
        ]
    );
    let mut several = app("", repo, dest("", "web", "prod"));
    several.spec.sources = vec![ApplicationSource {
        repo_url: repo.to_string(),
        ..Default::default()
    }];
    assert_eq!(
        refusals(&several, &[], &clusters),
        [
            "Application argocd/web-prod: spec.source.repoURL and either source.path, source.chart, or source.ref are required for source {\"repoURL\":\"https://github.com/org/fleet.git\"}; Argo CD does not deploy it"
        ]
    );
    let mut chart = app("", repo, dest("", "web", "prod"));
    chart.spec.source.as_mut().unwrap().chart = "web".to_string();
    assert_eq!(
        refusals(&chart, &[], &clusters),
        [
            "Application argocd/web-prod: spec.source.targetRevision is required if the manifest source is a helm chart; Argo CD does not deploy it"
        ]
    );
}
